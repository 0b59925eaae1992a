package dev.layerfold.e2e.auth;

/**
 * The kinds of caller the authorization matrix tries every route with: the columns of
 * {@link AuthorizationTable}, in its order.
 */
enum CallerKind {
    /** No credentials at all. */
    ANONYMOUS(null),
    /** A user of the password file that no access rule names. */
    NO_GRANTS("nogrants"),
    PULL("puller"),
    PUSH("pusher"),
    DELETE("deleter"),
    /** The admin grant (actions [admin] on '*') and nothing else: no repository action. */
    ADMIN("admin"),
    /** A real user name with a wrong password. */
    BAD_PASSWORD("nogrants"),
    /** A token signed with the registry's own key, for the admin, granting everything, expired. */
    EXPIRED_TOKEN("admin"),
    /** A token as this registry's issuer would make it, for the admin, granting everything, signed with another key. */
    FOREIGN_TOKEN("admin");

    private final String user;

    CallerKind(String user) {
        this.user = user;
    }

    /** The user of the password file this caller is or claims to be; null for {@link #ANONYMOUS}. */
    String user() {
        return user;
    }

    /** The password this caller sends: the user's own, or a wrong one. */
    String password() {
        return this == BAD_PASSWORD ? "not-the-password" : user + "-secret";
    }

    boolean signsInWithPassword() {
        return user != null && this != EXPIRED_TOKEN && this != FOREIGN_TOKEN;
    }

    boolean sendsOwnToken() {
        return this == EXPIRED_TOKEN || this == FOREIGN_TOKEN;
    }
}
