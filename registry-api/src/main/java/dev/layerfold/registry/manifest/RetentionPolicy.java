package dev.layerfold.registry.manifest;

import dev.layerfold.storage.RepositoryPattern;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Pattern;

/**
 * What to keep in the repositories {@code repositories} names. Tags: with {@code keepLastTags} and/or
 * {@code keepTags} set, a tag stays if it names one of the N most recently pushed manifests or matches
 * the pattern, and every other tag goes, with its manifest unless something else keeps it. Untagged
 * manifests go {@code untaggedAfter} after their push. A manifest an index of the repository lists, one
 * with referrers, and a referrer whose subject stays are always kept.
 */
public record RetentionPolicy(RepositoryPattern repositories, OptionalInt keepLastTags, Optional<Pattern> keepTags,
                              Optional<Duration> untaggedAfter) {

    public RetentionPolicy {
        if (keepLastTags.isPresent() && keepLastTags.getAsInt() < 0) {
            throw new IllegalArgumentException("retention for " + repositories.pattern()
                    + ": keep-last-tags must not be negative, was " + keepLastTags.getAsInt());
        }
    }

    boolean limitsTags() {
        return keepLastTags.isPresent() || keepTags.isPresent();
    }

    boolean keepsTag(String tag, int recency) {
        return keepTags.map(pattern -> pattern.matcher(tag).matches()).orElse(false)
                || (keepLastTags.isPresent() && recency < keepLastTags.getAsInt());
    }
}
