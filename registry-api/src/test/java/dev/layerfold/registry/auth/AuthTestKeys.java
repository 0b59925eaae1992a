package dev.layerfold.registry.auth;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;

/** Keys of a pretend external token issuer, and tokens it signs, for tests. */
final class AuthTestKeys {

    private AuthTestKeys() {
    }

    static ECKey newKey() throws Exception {
        return new ECKeyGenerator(Curve.P_256).generate();
    }

    /** Writes the key's public half as openssl does ({@code -----BEGIN PUBLIC KEY-----}). */
    static Path writePublicPem(ECKey key, Path file) throws Exception {
        String pem = "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(key.toECPublicKey().getEncoded())
                + "\n-----END PUBLIC KEY-----\n";
        return Files.writeString(file, pem);
    }

    static String token(ECKey key, String issuer, String audience, String subject, Instant expiresAt,
                        List<Map<String, Object>> access) throws Exception {
        JWTClaimsSet claims = new JWTClaimsSet.Builder().issuer(issuer).audience(audience).subject(subject)
                .issueTime(Date.from(expiresAt.minusSeconds(600))).notBeforeTime(Date.from(expiresAt.minusSeconds(600)))
                .expirationTime(Date.from(expiresAt)).claim("access", access).build();
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).build(), claims);
        jwt.sign(new ECDSASigner(key));
        return jwt.serialize();
    }

    static Map<String, Object> repositoryAccess(String repository, String... actions) {
        return Map.of("type", "repository", "name", repository, "actions", List.of(actions));
    }
}
