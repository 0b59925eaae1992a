package dev.layerfold.registry.auth;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Who may use the registry ({@code layerfold.auth.*}).
 *
 * @param mode {@code none} (open to everyone, the default), {@code token} (Docker registry tokens, the
 *     flow every client speaks; Basic credentials are accepted directly too) or {@code basic}
 * @param service the name tokens are issued for: their audience, and the challenge's {@code service}
 * @param issuer the {@code iss} every accepted token carries; the built-in token endpoint signs as it
 * @param realm the token endpoint clients are sent to; by default this registry's own {@code /token}
 * @param htpasswd users and their bcrypt password hashes, re-read when the file changes
 * @param signingKey PEM private key (EC P-256 or RSA) the built-in endpoint signs with; without it a
 *     key is made at start, so tokens last only as long as the process and are not shared by nodes
 * @param tokenLifetime how long a token the built-in endpoint issues is valid
 * @param jwksUrl an external issuer's JSON Web Key Set, fetched again when a token names an unknown key
 * @param keyFiles trusted public keys of external issuers (PEM or JWK Set files), re-read when they change
 * @param groups group name to its members
 * @param access who may do what where; without any rule every signed-in user may do everything
 * @param failedSignIns how many wrong passwords a user name and a client address may send per period
 */
@ConfigurationProperties("layerfold.auth")
public record AuthProperties(
        @DefaultValue("none") Mode mode,
        @DefaultValue("layerfold") String service,
        @DefaultValue("layerfold") String issuer,
        @Nullable URI realm,
        @Nullable Path htpasswd,
        @Nullable Path signingKey,
        @DefaultValue("5m") Duration tokenLifetime,
        @Nullable URI jwksUrl,
        @DefaultValue List<Path> keyFiles,
        @DefaultValue Map<String, List<String>> groups,
        @DefaultValue List<Rule> access,
        @DefaultValue FailedSignInLimits failedSignIns) {

    public enum Mode { NONE, TOKEN, BASIC }

    /**
     * Grants {@code actions} on the repositories matching any of {@code repositories} ({@code team-a/*}
     * is every repository below {@code team-a/}, {@code *} every repository) to the listed users and
     * groups. The user {@code *} is every signed-in user; {@code anonymous} is a caller who did not sign in.
     */
    public record Rule(@DefaultValue List<String> repositories, @DefaultValue List<String> users,
                       @DefaultValue List<String> groups, @DefaultValue List<Action> actions) {
    }

    /**
     * Wrong passwords allowed per user name and per client address, refilled evenly over {@code period};
     * beyond them sign-ins are answered 429 with {@code Retry-After} until the bucket refills.
     */
    public record FailedSignInLimits(@DefaultValue("10") int perUser, @DefaultValue("30") int perAddress,
                                     @DefaultValue("5m") Duration period) {
    }

    public AuthProperties {
        if (mode != Mode.NONE && htpasswd == null && jwksUrl == null && keyFiles.isEmpty()) {
            throw new IllegalArgumentException("layerfold.auth.mode=" + mode.name().toLowerCase()
                    + " needs users (layerfold.auth.htpasswd) or an external token issuer's keys"
                    + " (layerfold.auth.jwks-url or layerfold.auth.key-files)");
        }
        if (mode == Mode.TOKEN && htpasswd == null && realm == null) {
            throw new IllegalArgumentException("layerfold.auth.mode=token without users (layerfold.auth.htpasswd) issues no"
                    + " tokens itself: set layerfold.auth.realm to the token endpoint of the issuer whose keys are trusted");
        }
        if (mode == Mode.BASIC && htpasswd == null) {
            throw new IllegalArgumentException("layerfold.auth.mode=basic needs users: set layerfold.auth.htpasswd");
        }
        requireReadable("layerfold.auth.htpasswd", htpasswd);
        requireReadable("layerfold.auth.signing-key", signingKey);
        for (int i = 0; i < keyFiles.size(); i++) {
            requireReadable("layerfold.auth.key-files[" + i + "]", keyFiles.get(i));
        }
        if (jwksUrl != null && !List.of("http", "https").contains(String.valueOf(jwksUrl.getScheme()))) {
            throw new IllegalArgumentException("layerfold.auth.jwks-url must be an http(s) URL, not " + jwksUrl);
        }
    }

    /** A file named in the configuration that is not there would otherwise fail the first sign-in, not the start. */
    private static void requireReadable(String property, @Nullable Path file) {
        if (file != null && !Files.isReadable(file)) {
            throw new IllegalArgumentException(property + " names " + file.toAbsolutePath() + ", which "
                    + (Files.exists(file) ? "cannot be read" : "does not exist"));
        }
    }

    Optional<URI> tokenRealm() {
        return Optional.ofNullable(realm);
    }

    Optional<Path> passwordFile() {
        return Optional.ofNullable(htpasswd);
    }

    Optional<Path> signingKeyFile() {
        return Optional.ofNullable(signingKey);
    }

    Optional<URI> jwks() {
        return Optional.ofNullable(jwksUrl);
    }
}
