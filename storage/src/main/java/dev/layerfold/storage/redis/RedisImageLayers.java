package dev.layerfold.storage.redis;

import static dev.layerfold.storage.redis.RedisCalls.call;

import dev.layerfold.storage.predictor.ImageContents;
import dev.layerfold.storage.predictor.ImageLayers;
import dev.layerfold.storage.predictor.ImageRef;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.io.IOException;
import java.util.Optional;

/**
 * ILmap in Redis: a string per pushed manifest. Not rebuilt from the bucket when Redis loses it
 * (images pushed before such a loss are not predicted until pushed again; see docs/design.md).
 */
final class RedisImageLayers implements ImageLayers {

    private final RedisClusterCommands<String, String> redis;
    private final PredictorKeys keys;

    RedisImageLayers(RedisClusterCommands<String, String> redis, PredictorKeys keys) {
        this.redis = redis;
        this.keys = keys;
    }

    @Override
    public void put(ImageRef image, ImageContents contents) throws IOException {
        call("record the layers of " + image, () -> redis.set(keys.image(image), contents.encode()));
    }

    @Override
    public Optional<ImageContents> get(ImageRef image) throws IOException {
        String text = call("read the layers of " + image, () -> redis.get(keys.image(image)));
        return Optional.ofNullable(text).map(ImageContents::decode);
    }

    @Override
    public void remove(ImageRef image) throws IOException {
        call("forget the layers of " + image, () -> redis.del(keys.image(image), keys.imageRepulls(image)));
    }
}
