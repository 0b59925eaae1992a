package dev.layerfold.registry.notification;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The {@code X-Layerfold-Signature} of a request body: {@code sha256=} and the hex HMAC-SHA256 of the
 * body under the endpoint's secret, as GitHub signs its webhooks, so receivers can reuse their checks.
 */
public final class Signature {

    public static final String HEADER = "X-Layerfold-Signature";

    private Signature() {
    }

    public static String of(String secret, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is required by every Java runtime", e);
        }
    }
}
