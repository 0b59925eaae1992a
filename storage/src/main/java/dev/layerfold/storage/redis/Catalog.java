package dev.layerfold.storage.redis;

import static dev.layerfold.storage.redis.RedisCalls.call;

import dev.layerfold.storage.RepositoryName;
import io.lettuce.core.Range;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * The repository list. A repository exists while it has a blob or manifest link; the catalog's
 * sorted set lives in another cluster slot than the repository's keys, so it is kept in step by
 * re-checking rather than atomically: forgetting re-adds a repository that gained a link meanwhile.
 */
final class Catalog {

    private final RedisClusterCommands<String, String> redis;
    private final IndexKeys keys;

    Catalog(RedisClusterCommands<String, String> redis, IndexKeys keys) {
        this.redis = redis;
        this.keys = keys;
    }

    void remember(RepositoryName repository) throws IOException {
        call("add " + repository + " to the catalog", () -> redis.zadd(keys.catalog(), 0, repository.value()));
    }

    boolean exists(RepositoryName repository) throws IOException {
        return call("check repository " + repository,
                () -> redis.exists(keys.blobs(repository), keys.manifests(repository))) > 0;
    }

    void forgetIfEmpty(RepositoryName repository) throws IOException {
        if (!exists(repository)) {
            call("remove " + repository + " from the catalog", () -> redis.zrem(keys.catalog(), repository.value()));
            if (exists(repository)) {
                remember(repository);
            }
        }
    }

    List<RepositoryName> page(Optional<RepositoryName> after, int limit) throws IOException {
        Pages.requireValidLimit(limit);
        if (limit == 0) {
            return List.of();
        }
        Range<String> range = Pages.after(after.map(RepositoryName::value));
        return call("list repositories", () -> redis.zrangebylex(keys.catalog(), range, Pages.first(limit)))
                .stream().map(RepositoryName::of).toList();
    }
}
