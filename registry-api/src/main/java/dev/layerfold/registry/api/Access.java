package dev.layerfold.registry.api;

import dev.layerfold.storage.RepositoryName;

/**
 * What the caller of an admitted request may do beyond the endpoint it called: handlers ask it where
 * a request reaches into other repositories (the catalog, a cross-repository mount).
 */
public interface Access {

    /** Everyone may do everything: a registry without authentication. */
    Access EVERYONE = new Access() {
        @Override
        public String caller() {
            return "anonymous";
        }

        @Override
        public boolean mayPull(RepositoryName repository) {
            return true;
        }
    };

    /** Who is calling, for the audit log: a user name, a token's subject, or {@code anonymous}. */
    String caller();

    boolean mayPull(RepositoryName repository);
}
