package dev.layerfold.storage.filesystem;

import java.util.regex.Pattern;

/**
 * Upload ids become file names, so only ids that cannot escape the uploads directory or collide with
 * special names are accepted: letters, digits, '.', '_' and '-', starting with a letter or digit.
 */
final class UploadIds {

    static final int MAX_LENGTH = 128;

    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0," + (MAX_LENGTH - 1) + "}");

    private UploadIds() {
    }

    static boolean isSafe(String uploadId) {
        return uploadId != null && SAFE.matcher(uploadId).matches();
    }

    static void requireSafe(String uploadId) {
        if (!isSafe(uploadId)) {
            throw new IllegalArgumentException("invalid upload id '" + uploadId + "': use 1 to " + MAX_LENGTH
                    + " characters of [A-Za-z0-9._-], starting with a letter or digit (a UUID fits)");
        }
    }
}
