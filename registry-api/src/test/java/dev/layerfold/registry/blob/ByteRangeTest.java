package dev.layerfold.registry.blob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ByteRangeTest {

    @Test
    void parsesTheSingleRangeForms() {
        assertThat(ByteRange.parse("bytes=0-0", 10)).contains(new ByteRange(0, 0));
        assertThat(ByteRange.parse("bytes=3-", 10)).contains(new ByteRange(3, 9));
        assertThat(ByteRange.parse("bytes=-4", 10)).contains(new ByteRange(6, 9));
        assertThat(ByteRange.parse("bytes=-40", 10)).contains(new ByteRange(0, 9));
    }

    @Test
    void ignoresWhatItDoesNotServe() {
        assertThat(ByteRange.parse(null, 10)).isEmpty();
        assertThat(ByteRange.parse("bytes=0-1,4-5", 10)).isEmpty();
        assertThat(ByteRange.parse("items=0-1", 10)).isEmpty();
        assertThat(ByteRange.parse("bytes=5-2", 10)).isEmpty();
    }

    @Test
    void rangeStartingAtOrAfterTheEndIsUnsatisfiable() {
        assertThatThrownBy(() -> ByteRange.parse("bytes=10-", 10)).isInstanceOf(ByteRange.Unsatisfiable.class);
        assertThatThrownBy(() -> ByteRange.parse("bytes=-0", 10)).isInstanceOf(ByteRange.Unsatisfiable.class);
        assertThatThrownBy(() -> ByteRange.parse("bytes=0-", 0)).isInstanceOf(ByteRange.Unsatisfiable.class);
    }
}
