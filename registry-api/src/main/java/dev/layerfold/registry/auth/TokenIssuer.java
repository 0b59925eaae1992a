package dev.layerfold.registry.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Signs Docker registry tokens for the built-in token endpoint. */
final class TokenIssuer {

    record Issued(String token, Instant issuedAt, Duration lifetime) {
    }

    private final JWK key;
    private final JWSSigner signer;
    private final JWSAlgorithm algorithm;
    private final String issuer;
    private final String service;
    private final Duration lifetime;
    private final Clock clock;

    TokenIssuer(JWK key, String issuer, String service, Duration lifetime, Clock clock) {
        this.key = key;
        this.issuer = issuer;
        this.service = service;
        this.lifetime = lifetime;
        this.clock = clock;
        try {
            if (key instanceof ECKey ec) {
                this.signer = new ECDSASigner(ec);
                this.algorithm = JWSAlgorithm.ES256;
            } else {
                this.signer = new RSASSASigner((RSAKey) key);
                this.algorithm = JWSAlgorithm.RS256;
            }
        } catch (JOSEException e) {
            throw new IllegalArgumentException("cannot sign with key " + key.getKeyID() + ": " + e.getMessage(), e);
        }
    }

    /** The public half, which {@link TrustedKeys} trusts. */
    JWK publicKey() {
        return key.toPublicJWK();
    }

    Issued issue(String subject, List<Scope> access) {
        Instant now = clock.instant();
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .issuer(issuer)
                .subject(subject)
                .audience(service)
                .issueTime(Date.from(now))
                .notBeforeTime(Date.from(now))
                .expirationTime(Date.from(now.plus(lifetime)))
                .jwtID(UUID.randomUUID().toString())
                .claim("access", access.stream().map(scope -> Map.of("type", scope.type(), "name", scope.name(),
                        "actions", scope.actions().stream().sorted().toList())).toList())
                .build();
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(algorithm).keyID(key.getKeyID()).build(), claims);
        try {
            jwt.sign(signer);
        } catch (JOSEException e) {
            throw new IllegalStateException("signing a token failed", e);
        }
        return new Issued(jwt.serialize(), now, lifetime);
    }
}
