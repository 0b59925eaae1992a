package dev.layerfold.storage.usage;

/** A metadata store that keeps per-repository accounting. */
public interface UsageStorage {
    RepositoryUsage repositoryUsage();
}
