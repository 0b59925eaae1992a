package dev.layerfold.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class DigestTest {

    private static final String SHA256_HEX = "a".repeat(63) + "0";

    @Test
    void parsesTheDigestsItSupports() {
        Digest sha256 = Digest.parse("sha256:" + SHA256_HEX);
        Digest sha512 = Digest.parse("sha512:" + "0123456789abcdef".repeat(8));

        assertThat(sha256.algorithm()).isEqualTo(Digest.Algorithm.SHA256);
        assertThat(sha256.hex()).isEqualTo(SHA256_HEX);
        assertThat(sha512.algorithm()).isEqualTo(Digest.Algorithm.SHA512);
        assertThat(Digest.parse(sha256.toString())).isEqualTo(sha256);
    }

    @Test
    void aParsedDigestEqualsTheDigestOfTheBytes() {
        Digest computed = Digest.sha256("layer".getBytes(StandardCharsets.UTF_8));

        assertThat(Digest.parse(computed.toString())).isEqualTo(computed);
    }

    static Stream<String> notDigests() {
        return Stream.of("sha256:A", "sha256:", "sha256", ":abc", "sha256:abc", "sha256:" + "a".repeat(63), "SHA256:" + SHA256_HEX,
                "sha256:" + "A".repeat(64), "sha256:" + SHA256_HEX + "0", "sha256;" + SHA256_HEX, "sha256:" + "g".repeat(64),
                "md5:" + "a".repeat(32), "sha256:../../" + "a".repeat(58), " sha256:" + SHA256_HEX);
    }

    @ParameterizedTest
    @MethodSource("notDigests")
    void refusesAnythingElseSayingWhy(String text) {
        assertThatThrownBy(() -> Digest.parse(text)).isInstanceOf(InvalidDigestException.class).hasMessageContaining("invalid digest '");
    }

    @Test
    void namesTheUnsupportedAlgorithm() {
        assertThatThrownBy(() -> Digest.parse("sha384:" + "a".repeat(96))).hasMessageContaining("unsupported algorithm 'sha384'");
    }

    @Test
    void refusesNull() {
        assertThatThrownBy(() -> Digest.parse(null)).isInstanceOf(InvalidDigestException.class);
    }
}
