package dev.layerfold.registry.auth;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

/** The user and password of an {@code Authorization: Basic <base64(user:password)>} header (RFC 7617). */
record BasicCredentials(String user, String password) {

    static boolean isBasic(String authorization) {
        return authorization.regionMatches(true, 0, "Basic ", 0, "Basic ".length());
    }

    /** Empty for another scheme, or a value that is not base64 of {@code user:password}. */
    static Optional<BasicCredentials> parse(String authorization) {
        if (!isBasic(authorization)) {
            return Optional.empty();
        }
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(authorization.substring("Basic ".length()).trim()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException notBase64) {
            return Optional.empty();
        }
        int colon = decoded.indexOf(':');
        return colon < 0 ? Optional.empty() : Optional.of(new BasicCredentials(decoded.substring(0, colon), decoded.substring(colon + 1)));
    }
}
