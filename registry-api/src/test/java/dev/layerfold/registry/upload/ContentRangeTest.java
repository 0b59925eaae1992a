package dev.layerfold.registry.upload;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ContentRangeTest {

    @Test
    void acceptsTheSpecFormAndTheRfcForm() {
        assertThat(ContentRange.parse("0-99")).contains(new ContentRange(0, 99));
        assertThat(ContentRange.parse("bytes 100-199/*")).contains(new ContentRange(100, 199));
        assertThat(ContentRange.parse("bytes=5-5")).contains(new ContentRange(5, 5));
    }

    @Test
    void refusesMalformedOrBackwardRanges() {
        assertThat(ContentRange.parse("99-0")).isEmpty();
        assertThat(ContentRange.parse("-5")).isEmpty();
        assertThat(ContentRange.parse("0-99999999999999999999")).isEmpty();
        assertThat(ContentRange.parse("abc")).isEmpty();
    }
}
