package dev.layerfold.e2e.compose;

import static dev.layerfold.e2e.compose.ComposeInterpolation.resolve;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ComposeInterpolationTest {

    private static final Map<String, String> NONE = Map.of();

    @Test
    void textWithoutDollarsIsUnchanged() {
        assertThat(resolve("redis://redis:6379", NONE)).isEqualTo("redis://redis:6379");
        assertThat(resolve("", NONE)).isEmpty();
    }

    @Test
    void plainVariableIsItsValueAndEmptyWhenUnsetAsInCompose() {
        assertThat(resolve("${USER}", Map.of("USER", "layerfold"))).isEqualTo("layerfold");
        assertThat(resolve("a${USER}b", NONE)).isEqualTo("ab");
    }

    @Test
    void defaultAppliesWhenTheVariableIsUnsetOrEmpty() {
        assertThat(resolve("${BUCKET:-layerfold}", NONE)).isEqualTo("layerfold");
        assertThat(resolve("${BUCKET:-layerfold}", Map.of("BUCKET", ""))).isEqualTo("layerfold");
        assertThat(resolve("${BUCKET:-layerfold}", Map.of("BUCKET", "images"))).isEqualTo("images");
        assertThat(resolve("${BUCKET:-}", NONE)).isEmpty();
    }

    @Test
    void defaultIsTakenLiterallyUpToTheClosingBrace() {
        assertThat(resolve("${URL:-http://minio:9000/a-b}", NONE)).isEqualTo("http://minio:9000/a-b");
        assertThat(resolve("${A:-x:-y}", NONE)).isEqualTo("x:-y");
    }

    @Test
    void severalVariablesInOneValue() {
        assertThat(resolve("${A:-a}/${B}-${C:-c}", Map.of("B", "b", "C", "see"))).isEqualTo("a/b-see");
    }

    @Test
    void doubleDollarIsALiteralDollarAndIsNotInterpolated() {
        assertThat(resolve("\"$$MINIO_ROOT_USER\"", Map.of("MINIO_ROOT_USER", "x"))).isEqualTo("\"$MINIO_ROOT_USER\"");
        assertThat(resolve("$${A}", Map.of("A", "x"))).isEqualTo("${A}");
        assertThat(resolve("$$$$", NONE)).isEqualTo("$$");
        assertThat(resolve("$$${A}", Map.of("A", "x"))).isEqualTo("$x");
    }

    @ParameterizedTest
    @ValueSource(strings = {"$A", "a$", "$ b", "${A", "${}", "${1A}", "${A-default}", "${A:?error}", "${A?error}",
            "${A:+alternative}", "${A+alternative}", "${A:-${B}}", "${A:-$B}", "${A B}"})
    void everyOtherFormFailsNamingWhatIsSupported(String value) {
        assertThatThrownBy(() -> resolve(value, Map.of("A", "x", "B", "y")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'" + value + "'")
                .hasMessageContaining("only ${VAR}, ${VAR:-default} and $$ are supported");
    }
}
