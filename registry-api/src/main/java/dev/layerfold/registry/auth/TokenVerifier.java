package dev.layerfold.registry.auth;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Verifies bearer tokens: the signature against {@link TrustedKeys}, the issuer, the audience (this
 * registry's service), expiry and not-before. A token is verified once and its grants are then kept
 * until it expires, so the requests of a push or pull after the first cost a map lookup.
 */
final class TokenVerifier {

    /** Why a token was refused, for the challenge's {@code error_description}. */
    static final class InvalidTokenException extends Exception {
        InvalidTokenException(String message) {
            super(message, null, false, false);
        }
    }

    private final DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
    private final Clock clock;
    private final Cache<String, Grants> verified;

    TokenVerifier(TrustedKeys keys, String issuer, String service, Clock clock) {
        this.clock = clock;
        processor.setJWSKeySelector(keys);
        processor.setJWTClaimsSetVerifier(new DefaultJWTClaimsVerifier<>(service,
                new JWTClaimsSet.Builder().issuer(issuer).build(), Set.of("sub", "exp")));
        this.verified = Caffeine.newBuilder().maximumSize(100_000).expireAfter(new Expiry<String, Grants>() {
            @Override
            public long expireAfterCreate(String token, Grants grants, long currentTime) {
                return Math.max(0, Duration.between(clock.instant(), grants.expiresAt()).toNanos());
            }

            @Override
            public long expireAfterUpdate(String token, Grants grants, long currentTime, long currentDuration) {
                return currentDuration;
            }

            @Override
            public long expireAfterRead(String token, Grants grants, long currentTime, long currentDuration) {
                return currentDuration;
            }
        }).build();
    }

    Grants verify(String token) throws InvalidTokenException {
        Grants grants = verified.getIfPresent(token);
        if (grants != null && clock.instant().isBefore(grants.expiresAt())) {
            return grants;
        }
        JWTClaimsSet claims;
        try {
            claims = processor.process(token, null);
        } catch (ParseException e) {
            throw new InvalidTokenException("the bearer token is not a JWT");
        } catch (BadJOSEException | JOSEException e) {
            throw new InvalidTokenException(e.getMessage());
        }
        Instant expiresAt = claims.getExpirationTime().toInstant();
        grants = Grants.of(claims.getSubject(), access(claims), expiresAt);
        verified.put(token, grants);
        return grants;
    }

    private static List<Scope> access(JWTClaimsSet claims) throws InvalidTokenException {
        Object claim = claims.getClaim("access");
        if (claim == null) {
            return List.of();
        }
        if (!(claim instanceof List<?> entries)) {
            throw new InvalidTokenException("the token's access claim is not a list");
        }
        List<Scope> access = new ArrayList<>();
        for (Object entry : entries) {
            if (entry instanceof Map<?, ?> map && map.get("type") instanceof String type && map.get("name") instanceof String name
                    && map.get("actions") instanceof List<?> actions) {
                access.add(new Scope(type, name, Set.copyOf(actions.stream().map(String::valueOf).toList())));
            }
        }
        return access;
    }
}
