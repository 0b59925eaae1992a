package dev.layerfold.e2e.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;

/**
 * The registry's signing key (written as the PKCS#8 PEM file {@code layerfold.auth.signing-key} names),
 * and the two tokens no caller may get anything with: one signed with that key that expired, one as the
 * registry's issuer would write it but signed with another key. Both grant everything to the admin.
 */
final class MatrixTokens {

    private final ECKey registryKey;
    private final ECKey foreignKey;
    private final Path pem;

    MatrixTokens(Path dir) throws IOException, JOSEException {
        this.registryKey = new ECKeyGenerator(Curve.P_256).keyIDFromThumbprint(true).generate();
        this.foreignKey = new ECKeyGenerator(Curve.P_256).keyIDFromThumbprint(true).generate();
        this.pem = Files.writeString(dir.resolve("signing-key.pem"), "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(registryKey.toPrivateKey().getEncoded())
                + "\n-----END PRIVATE KEY-----\n");
    }

    Path signingKeyFile() {
        return pem;
    }

    /** The private key's PKCS#8 bytes in base64, as the PEM file holds them: a secret no log may show. */
    String signingKeyBase64() {
        try {
            return Base64.getEncoder().encodeToString(registryKey.toPrivateKey().getEncoded());
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    String of(CallerKind caller) {
        Instant now = Instant.now();
        try {
            return switch (caller) {
                case EXPIRED_TOKEN -> sign(registryKey, caller.user(), now.minus(Duration.ofHours(1)), now.minus(Duration.ofMinutes(10)));
                case FOREIGN_TOKEN -> sign(foreignKey, caller.user(), now.minus(Duration.ofMinutes(1)), now.plus(Duration.ofMinutes(10)));
                default -> throw new IllegalArgumentException(caller + " brings no token of its own");
            };
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String sign(ECKey key, String subject, Instant issued, Instant expires) throws JOSEException {
        JWTClaimsSet claims = new JWTClaimsSet.Builder().issuer("layerfold").subject(subject).audience("layerfold")
                .issueTime(Date.from(issued)).notBeforeTime(Date.from(issued)).expirationTime(Date.from(expires))
                .claim("access", List.of(
                        Map.of("type", "repository", "name", MatrixFixture.REPOSITORY, "actions", List.of("delete", "pull", "push")),
                        Map.of("type", "repository", "name", MatrixFixture.ABSENT, "actions", List.of("delete", "pull", "push")),
                        Map.of("type", "registry", "name", "catalog", "actions", List.of("*"))))
                .build();
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID(key.getKeyID()).build(), claims);
        jwt.sign(new ECDSASigner(key));
        return jwt.serialize();
    }
}
