package dev.layerfold.benchmark.codec;

import dev.layerfold.dedup.codec.deflate.klauspost.KlauspostFlateEncoder;

/**
 * The Go 1.27 encoder port against Go 1.27.3's own {@code compress/flate} ({@code go} fetches the
 * toolchain through the module proxy), by the {@code goflate} suite's method.
 */
public final class Go127FlateBenchmark extends GoFlateBenchmark {

    public Go127FlateBenchmark() {
        super("goflate127", "go1.27.3", KlauspostFlateEncoder::go127);
    }
}
