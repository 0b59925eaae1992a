package dev.layerfold.storage.embedded;

/** Argument checks shared by the paginated listings. */
final class Pages {

    private Pages() {
    }

    static void requireValidLimit(int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("page limit must not be negative, was " + limit);
        }
    }
}
