package dev.layerfold.storage.usage;

/** How {@link RepositoryUsage#page} sorts: by a figure, largest first, or by name. */
public enum UsageOrder {
    STORED, LOGICAL, FREED, PULLS, NAME
}
