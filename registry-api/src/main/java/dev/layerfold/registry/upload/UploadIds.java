package dev.layerfold.registry.upload;

import dev.layerfold.storage.Digest;
import java.util.UUID;

/**
 * Upload ids are UUIDs, prefixed with the algorithm an upload is hashed in as it arrives when that is
 * not SHA-256 ({@code sha512-<uuid>}): every process that continues the upload learns it from the id
 * alone, before the first byte arrives and without a field in the stored upload state.
 */
final class UploadIds {

    private UploadIds() {
    }

    static String newId(Digest.Algorithm runningAlgorithm) {
        String uuid = UUID.randomUUID().toString();
        return runningAlgorithm == Digest.Algorithm.SHA256 ? uuid : runningAlgorithm.prefix() + "-" + uuid;
    }

    static Digest.Algorithm runningAlgorithm(String uploadId) {
        for (Digest.Algorithm algorithm : Digest.Algorithm.values()) {
            if (uploadId.startsWith(algorithm.prefix() + "-")) {
                return algorithm;
            }
        }
        return Digest.Algorithm.SHA256;
    }
}
