package dev.layerfold.storage.redis;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.predictor.ImageRef;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Redis key names of the predictor's maps. A user's keys share one hash tag, so a pull updates them in
 * one script on Redis Cluster; users spread over the slots. The tag is a hash of the user, since a
 * user agent may hold braces and be long. An image's keys are tagged with its repository, like the
 * repository's own keys (see {@link IndexKeys}), under a prefix of their own.
 */
final class PredictorKeys {

    private final String prefix;

    PredictorKeys(String namespace) {
        this.prefix = namespace + ":predictor:";
    }

    /** Hash: layer digest to how many times the user pulled it. */
    String layerCounts(String user) {
        return userTag(user) + "counts";
    }

    /** Sorted set: layer digest scored by when the user last pulled it (milliseconds). */
    String layerTimes(String user) {
        return userTag(user) + "times";
    }

    /** Hash: the user's repull counters, last image, platform and when it was last seen. */
    String userStats(String user) {
        return userTag(user) + "stats";
    }

    /** String: an image's contents (ImageContents.encode). */
    String image(ImageRef image) {
        return prefix + "{" + image.repository().value() + "}:image:" + image.manifest();
    }

    /** Hash: an image's repull counters over all its users. */
    String imageRepulls(ImageRef image) {
        return prefix + "{" + image.repository().value() + "}:repulls:" + image.manifest();
    }

    private String userTag(String user) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(user.getBytes(StandardCharsets.UTF_8));
            return prefix + "{u:" + HexFormat.of().formatHex(hash, 0, 16) + "}:";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java runtime", e);
        }
    }

    static String field(Digest layer) {
        return layer.toString();
    }
}
