package dev.layerfold.registry.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.ECPoint;
import java.security.spec.ECPublicKeySpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.RSAPublicKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import org.bouncycastle.jce.ECNamedCurveTable;

/**
 * Reads the key files operators make with openssl: a PKCS#8 private key to sign with
 * ({@code openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out key.pem}, or RSA), and
 * public keys to trust ({@code openssl pkey -in key.pem -pubout}), or a JWK Set file instead.
 */
final class PemKeys {

    private PemKeys() {
    }

    /** The signing key with its public half (which a PKCS#8 EC key does not carry, so it is derived). */
    static JWK privateKey(Path file) {
        try {
            byte[] der = der(file, "PRIVATE KEY");
            for (String algorithm : List.of("EC", "RSA")) {
                PrivateKey key;
                try {
                    key = KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
                } catch (GeneralSecurityException wrongAlgorithm) {
                    continue;
                }
                return switch (key) {
                    case ECPrivateKey ec -> new ECKey.Builder(Curve.P_256, publicOf(ec)).privateKey(ec).keyIDFromThumbprint().build();
                    case RSAPrivateCrtKey rsa -> new RSAKey.Builder((RSAPublicKey) KeyFactory.getInstance("RSA")
                            .generatePublic(new RSAPublicKeySpec(rsa.getModulus(), rsa.getPublicExponent())))
                            .privateKey(rsa).keyIDFromThumbprint().build();
                    default -> throw new IllegalArgumentException(file + " holds a " + key.getAlgorithm() + " key");
                };
            }
            throw new IllegalArgumentException(file + " is neither an EC nor an RSA key in PKCS#8 PEM");
        } catch (IOException | GeneralSecurityException | JOSEException e) {
            throw new IllegalArgumentException("cannot read the signing key " + file + " (layerfold.auth.signing-key): " + e.getMessage(), e);
        }
    }

    /** Public keys of a file: a JWK Set (JSON) or PEM {@code PUBLIC KEY} blocks. */
    static List<JWK> publicKeys(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.US_ASCII);
        try {
            if (text.stripLeading().startsWith("{")) {
                return JWKSet.parse(text).toPublicJWKSet().getKeys();
            }
            PublicKey key = publicKey(der(text, "PUBLIC KEY", file));
            return List.of(switch (key) {
                case ECPublicKey ec -> new ECKey.Builder(Curve.forECParameterSpec(ec.getParams()), ec).build();
                case RSAPublicKey rsa -> new RSAKey.Builder(rsa).build();
                default -> throw new IllegalArgumentException(file + " holds a " + key.getAlgorithm() + " key");
            });
        } catch (java.text.ParseException | GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot read trusted keys from " + file + ": " + e.getMessage(), e);
        }
    }

    private static PublicKey publicKey(byte[] der) throws GeneralSecurityException {
        try {
            return KeyFactory.getInstance("EC").generatePublic(new X509EncodedKeySpec(der));
        } catch (GeneralSecurityException notEc) {
            return KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(der));
        }
    }

    private static ECPublicKey publicOf(ECPrivateKey key) throws GeneralSecurityException {
        if (!Curve.P_256.equals(Curve.forECParameterSpec(key.getParams()))) {
            throw new GeneralSecurityException("ES256 signs with P-256 keys only");
        }
        var q = ECNamedCurveTable.getParameterSpec("P-256").getG().multiply(key.getS()).normalize();
        ECPoint point = new ECPoint(new BigInteger(1, q.getAffineXCoord().getEncoded()), new BigInteger(1, q.getAffineYCoord().getEncoded()));
        return (ECPublicKey) KeyFactory.getInstance("EC").generatePublic(new ECPublicKeySpec(point, key.getParams()));
    }

    private static byte[] der(Path file, String label) throws IOException {
        return der(Files.readString(file, StandardCharsets.US_ASCII), label, file);
    }

    private static byte[] der(String pem, String label, Path file) {
        String begin = "-----BEGIN " + label + "-----";
        String end = "-----END " + label + "-----";
        int from = pem.indexOf(begin);
        int to = pem.indexOf(end);
        if (from < 0 || to < from) {
            throw new IllegalArgumentException(file + " has no " + begin + " block");
        }
        return Base64.getMimeDecoder().decode(pem.substring(from + begin.length(), to));
    }
}
