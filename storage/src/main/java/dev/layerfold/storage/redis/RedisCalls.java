package dev.layerfold.storage.redis;

import io.lettuce.core.RedisException;
import java.io.IOException;

/** Lettuce reports failures as unchecked exceptions; the ports promise {@link IOException}s. */
final class RedisCalls {

    @FunctionalInterface
    interface Call<T> {
        T run();
    }

    private RedisCalls() {
    }

    static <T> T call(String action, Call<T> call) throws IOException {
        try {
            return call.run();
        } catch (RedisException e) {
            throw new IOException("Redis failed to " + action + ": " + e.getMessage(), e);
        }
    }
}
