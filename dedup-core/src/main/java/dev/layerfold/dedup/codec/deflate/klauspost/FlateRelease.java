package dev.layerfold.dedup.codec.deflate.klauspost;

/**
 * Which release of klauspost's {@code flate} (or Go 1.27's copy of it) a {@link KlauspostFlateEncoder}
 * writes as. Their level 1 to 6 encoders match ranges alike; the releases differ only in how a
 * block that stays open is headed and priced, and in levels 7 to 9's matching, which is what the
 * fields name.
 */
public enum FlateRelease {

    /** Go 1.27's {@code compress/flate}. */
    GO_1_27(1, false, false, false, true),
    /** klauspost/compress 1.18.2 to 1.20.3: Go 1.27's bytes but for level 9's literal prices. */
    COMPRESS_1_18_2(0, false, false, false, true),
    /**
     * klauspost/compress 1.15.12 (Debian's skopeo 1.9.3 and the podman, buildah and skopeo releases
     * built with it): a block that stays open lists every code, and levels 7 to 9 weigh and extend
     * matches the older way.
     */
    COMPRESS_1_15_12(0, true, true, true, false);

    /** The fewest bits level 9 prices a literal at when it weighs a match: 1 in Go 1.27, else 0. */
    final int literalFloor;
    /**
     * Up to 1.18.0 a dynamic block that is not flushed ({@code indexTokens(tokens, !sync)}) heads
     * all 286 literal/length and 30 distance codes, and prices itself without its end-of-block code.
     */
    final boolean openBlockListsEveryCode;
    /**
     * Up to 1.17.11 level 4 measures the next position's long candidate at that candidate; since
     * 1.18.0 at the candidate's distance taken as a position ({@code level4.go}'s {@code lOff}).
     */
    final boolean level4MeasuresNextAtItsPosition;
    /**
     * Up to 1.15.12 levels 7 to 9: level 9 accepts any match that saves more than 6 bits (its
     * literal prices from the whole window's bytes), and a match's end is looked up 2 bytes before it.
     */
    final boolean olderLazyMatching;
    /** Since 1.20.0 (and Go 1.27.3) a preset dictionary is not part of the first block's stored bytes. */
    final boolean dictionaryOutsideFirstBlock;

    FlateRelease(int literalFloor, boolean openBlockListsEveryCode, boolean level4MeasuresNextAtItsPosition,
            boolean olderLazyMatching, boolean dictionaryOutsideFirstBlock) {
        this.literalFloor = literalFloor;
        this.openBlockListsEveryCode = openBlockListsEveryCode;
        this.level4MeasuresNextAtItsPosition = level4MeasuresNextAtItsPosition;
        this.olderLazyMatching = olderLazyMatching;
        this.dictionaryOutsideFirstBlock = dictionaryOutsideFirstBlock;
    }
}
