package dev.layerfold.dedup.codec.deflate.klauspost;

/**
 * Which release of klauspost's {@code flate} (or Go 1.27's copy of it) a {@link KlauspostFlateEncoder}
 * writes as. From klauspost/compress 1.15.11 on, their level 1 to 6 encoders find the same matches
 * but for one measure at level 4 (before, levels 1 to 3 hashed fewer bytes, levels 5 and 6 tried
 * longer matches elsewhere and long matches were cut otherwise); the releases differ besides in how a block that stays open is headed and
 * priced, and in levels 7 to 9's matching, which is what the fields name.
 */
public enum FlateRelease {

    /** Go 1.27's {@code compress/flate}. */
    GO_1_27(1, false, false, false, false, true, false, false, false, false),
    /** klauspost/compress 1.20.0 to 1.20.3: Go 1.27's bytes but for level 9's literal prices. */
    COMPRESS_1_20_3(0, false, false, false, false, true, false, false, false, false),
    /** klauspost/compress 1.18.2 to 1.19.2 (the podman and skopeo after 5.8 and 1.22): 1.20's but for levels 7 to 9. */
    COMPRESS_1_19_2(0, false, false, false, false, false, false, false, false, false),
    /** klauspost/compress 1.18.0 (podman 5.5 to 5.8, skopeo 1.19 to 1.22). */
    COMPRESS_1_18_0(0, true, false, true, false, false, false, false, false, false),
    /** klauspost/compress 1.15.15 to 1.17.11 (podman 4.4 to 5.4, skopeo 1.11 to 1.18); there is no 1.15.14. */
    COMPRESS_1_17_11(0, true, true, true, false, false, false, false, false, false),
    /** klauspost/compress 1.15.11 to 1.15.13 (Debian 12's skopeo 1.9.3, built with 1.15.12; podman 4.3, skopeo 1.10). */
    COMPRESS_1_15_12(0, true, true, true, true, false, false, false, false, false),
    /** klauspost/compress 1.15.10: 1.15.12's bytes but for levels 1 to 3. */
    COMPRESS_1_15_10(0, true, true, true, true, false, true, false, false, false),
    /**
     * klauspost/compress 1.15.0 to 1.15.9 (containers/image 5.21 and 5.22: podman 4.1 and 4.2): 1.15.10's
     * bytes but for levels 5 and 6, and so pgzip's default.
     */
    COMPRESS_1_15_9(0, true, true, true, true, false, true, true, false, false),
    /**
     * klauspost/compress 1.14.3 and 1.14.4, and 1.14.2 (podman 4.0, buildah 1.24) but at level 3 (1.14.1
     * measured alike at levels -2 to 6): 1.15.9's bytes but for how levels 1 to 6 cut matches over 258 bytes.
     */
    COMPRESS_1_14_4(0, true, true, true, true, false, true, true, true, false),
    /**
     * klauspost/compress 1.12.3 to 1.13.6 (Ubuntu 22.04's podman 3.4.4, buildah 1.23, skopeo 1.4), at levels
     * -2, 0, 1, 2, 4, 5 and 6 only: 1.14.4's bytes but for how a block is priced and headed. Level 3 (1.14.3
     * changed its hashing) and levels 7 to 9 (1.14.1 and 1.14.2 changed their matching) are not ported.
     */
    COMPRESS_1_13_6(0, true, true, true, true, false, true, true, true, true);

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
    /** Up to 1.18.1 level 9 prices literals by all of the window's bytes ahead, since 1.18.2 by the next 32768. */
    final boolean pricesWholeWindow;
    /**
     * Up to 1.15.13 levels 7 to 9: level 9 accepts any match that saves more than 6 bits, and a
     * match's end is looked up 2 bytes before it; since 1.15.15 more than 3 + 4 bits, at the end.
     */
    final boolean olderLazyMatching;
    /**
     * Since 1.20.0 (and Go 1.27.3) levels 7 to 9 leave a preset dictionary (pgzip's previous tail)
     * out of the first block's bytes, which decide whether storing it is cheaper.
     */
    final boolean dictionaryOutsideFirstBlock;
    /**
     * Up to 1.15.10 levels 1 to 3 hash 4 bytes (level 1 with Snappy's multiplier), since 1.15.11 5;
     * level 3 then also skipped ahead twice as fast through literals, indexed every 5th position of
     * a match (since 1.15.11 every 6th) and stopped searching 7 bytes before the block's end (11).
     */
    final boolean fastLevelsHashFourBytes;
    /**
     * Up to 1.15.9 levels 5 and 6 try the long candidate found at a match's end from where the
     * match starts; since 1.15.10 from 2 bytes into it ({@code skipBeginning}).
     */
    final boolean longerMatchTriedFromMatchStart;
    /**
     * Up to 1.14.4 levels 1 to 6 cut a match over 258 bytes into tokens of 255 ({@code AddMatchLong}),
     * since 1.15.0 of 258 while more than 261 bytes are left.
     */
    final boolean longMatchesCutAt255;
    /**
     * Up to 1.13.6 a block that is not flushed gives every code a count of at least 1, so its table
     * (headed with every code) can always be reused; a block is never fixed-Huffman, is stored only
     * when that saves a 16th of its estimate, and levels 1 to 6 weigh a new table with a penalty of
     * 1/256 (since 1.14.1 1/128).
     */
    final boolean openBlockFillsEveryCode;

    FlateRelease(int literalFloor, boolean openBlockListsEveryCode, boolean level4MeasuresNextAtItsPosition,
            boolean pricesWholeWindow, boolean olderLazyMatching, boolean dictionaryOutsideFirstBlock,
            boolean fastLevelsHashFourBytes, boolean longerMatchTriedFromMatchStart, boolean longMatchesCutAt255,
            boolean openBlockFillsEveryCode) {
        this.literalFloor = literalFloor;
        this.openBlockListsEveryCode = openBlockListsEveryCode;
        this.level4MeasuresNextAtItsPosition = level4MeasuresNextAtItsPosition;
        this.pricesWholeWindow = pricesWholeWindow;
        this.olderLazyMatching = olderLazyMatching;
        this.dictionaryOutsideFirstBlock = dictionaryOutsideFirstBlock;
        this.fastLevelsHashFourBytes = fastLevelsHashFourBytes;
        this.longerMatchTriedFromMatchStart = longerMatchTriedFromMatchStart;
        this.longMatchesCutAt255 = longMatchesCutAt255;
        this.openBlockFillsEveryCode = openBlockFillsEveryCode;
    }
}
