package dev.layerfold.storage.redis;

import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import java.util.Optional;

/** Lexical paging over sorted sets whose members all have score 0 (ZRANGEBYLEX). */
final class Pages {

    private Pages() {
    }

    static void requireValidLimit(int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("page limit must not be negative, was " + limit);
        }
    }

    /** Members strictly after {@code after}, or from the first. */
    static Range<String> after(Optional<String> after) {
        return Range.from(after.map(Range.Boundary::excluding).orElse(Range.Boundary.unbounded()),
                Range.Boundary.unbounded());
    }

    static Limit first(int limit) {
        return Limit.create(0, limit);
    }
}
