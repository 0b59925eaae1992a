package dev.layerfold.storage.redis;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A Lua script run atomically by Redis, sent by its SHA-1 and in full only when the server does not
 * have it cached yet. Every key it touches is passed in {@code keys} and shares one hash tag, so it
 * runs on Redis Cluster too.
 */
final class RedisScript {

    private final String source;
    private final String sha;

    RedisScript(String source) {
        this.source = source;
        try {
            this.sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1")
                    .digest(source.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required by every Java runtime", e);
        }
    }

    <T> T run(RedisClusterCommands<String, String> redis, ScriptOutputType output, String[] keys, String... args) {
        try {
            return redis.evalsha(sha, output, keys, args);
        } catch (RedisNoScriptException notCachedYet) {
            return redis.eval(source, output, keys, args);
        }
    }

    boolean returnsTrue(RedisClusterCommands<String, String> redis, String[] keys, String... args) {
        Long result = run(redis, ScriptOutputType.INTEGER, keys, args);
        return result != null && result == 1L;
    }
}
