package dev.layerfold.dedup.codec.zstd.klauspost;

import dev.layerfold.dedup.codec.container.ZstdFrameHeader;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;

/**
 * How a klauspost/compress/zstd producer set up its streaming Writer: the EncoderLevel (1
 * SpeedFastest .. 4 SpeedBestCompression; containers/image maps zstd level 3 to 2, SpeedDefault)
 * and the compress release whose encoder wrote it, since releases write other bytes. Everything
 * else is the Writer's default: checksum, no dictionary, no content size, the level's window and
 * block size; concurrency does not change the output.
 */
public record KlauspostSettings(int level, Release release) {

    public static final String FAMILY = "klauspost-zstd";
    public static final int SPEED_FASTEST = 1;
    public static final int SPEED_DEFAULT = 2;
    public static final int SPEED_BETTER = 3;
    public static final int SPEED_BEST = 4;
    /** The levels, most used first. */
    public static final int[] LEVELS = {SPEED_DEFAULT, SPEED_FASTEST, SPEED_BETTER, SPEED_BEST};

    /**
     * The compress release generations ported, each named in recipes by the number of a release it
     * holds. Identification races only those that {@link #raced} says: 1.17.7's frames are told from
     * 1.18.0's by their blocks instead ({@code ZstdIdentifier}), as the two write the same bytes but
     * for blocks of one repeated byte.
     */
    public enum Release {
        /**
         * compress 1.17.7 (podman 5.0's pin; tested to write the same at every level), before the RLE
         * block: a block of one repeated byte is written as a compressed block (and at levels 3 and 4
         * searched like any other). 1.17.6's zstd sources are 1.17.7's (not run); 1.17.5 and earlier
         * differ at level 4 (enc_best.go), 1.17.4 and earlier also in their window options: not ported.
         */
        COMPRESS_1_17_7(11707, false, false),
        /**
         * compress 1.18.0, which podman 5.5-5.8 pin, and every release from 1.17.8 to 1.20.2, whose
         * encoders differ from it only in form (1.17.8, 1.17.9, 1.17.11 and 1.20.2 tested to write the
         * same). 1.17.8 added the RLE block.
         */
        COMPRESS_1_18_0(11800, true, false),
        /**
         * compress 1.20.3 (go.podman.io/image 5.42's pin), where a new table's description is priced
         * exactly against the previous table; and 1.20.4, which differs only where 1.20.3 wrote a frame
         * no decoder reads (literals coded with a Huffman code it never wrote, which 1.20.4 stopped
         * reusing), so never in a layer that can be split (tested to write the same otherwise).
         */
        COMPRESS_1_20_3(12003, true, true);

        private final int id;
        private final boolean writesRleBlocks;
        private final boolean pricesTableDescriptions;

        Release(int id, boolean writesRleBlocks, boolean pricesTableDescriptions) {
            this.id = id;
            this.writesRleBlocks = writesRleBlocks;
            this.pricesTableDescriptions = pricesTableDescriptions;
        }

        /**
         * Whether a block of one repeated byte becomes an RLE block (blockEnc.encodeRLE since 1.17.8):
         * a block of one sequence at offset 1 with no literal but its first byte, and at levels 3 and
         * 4 any such block, which their Encode shortcuts to that sequence ("Check RLE first").
         */
        boolean writesRleBlocks() {
            return writesRleBlocks;
        }

        /** Whether identification tries it as a candidate: 1.17.7 (no RLE blocks) is told from 1.18.0 by the frame's blocks instead. */
        public boolean raced() {
            return writesRleBlocks;
        }

        /** Whether choosing a sequence table weighs a new table's actual description and each table's log (blockEnc.chooseComp since 1.20.3). */
        boolean pricesTableDescriptions() {
            return pricesTableDescriptions;
        }

        static Release of(int id) {
            for (Release release : values()) {
                if (release.id == id) {
                    return release;
                }
            }
            throw new IllegalArgumentException("no klauspost/compress release " + id + " is ported");
        }
    }

    public KlauspostSettings {
        if (level < SPEED_FASTEST || level > SPEED_BEST) {
            throw new IllegalArgumentException("no klauspost/compress/zstd level " + level + " (SpeedFastest 1 to SpeedBestCompression 4)");
        }
    }

    public EncoderSpec spec() {
        return EncoderSpec.of(FAMILY, level, release.id);
    }

    public static KlauspostSettings of(EncoderSpec spec) {
        if (!spec.family().equals(FAMILY) || spec.params().size() != 1) {
            throw new IllegalArgumentException("not a " + FAMILY + " encoder: " + spec);
        }
        return new KlauspostSettings(spec.level(), Release.of(spec.params().get(0)));
    }

    /** WithEncoderLevel's window: 4 MiB at SpeedFastest, else 8 MiB. */
    int windowSize() {
        return level == SPEED_FASTEST ? 4 << 20 : 8 << 20;
    }

    /**
     * The most heap one encoder of these settings holds: its match tables, its window's history (up to
     * twice the window, and the array it grew from while it is copied) and a block's buffers.
     */
    public long heapBound() {
        long tables = switch (level) {
            case SPEED_FASTEST -> FastMatcher.tableBytes();
            case SPEED_DEFAULT -> DoubleFastMatcher.tableBytes();
            case SPEED_BETTER -> BetterMatcher.tableBytes();
            default -> BestMatcher.tableBytes();
        };
        return tables + 5L * windowSize() / 2 + (1 << 20);
    }

    /** WithEncoderLevel's block size: 64 KiB at SpeedFastest, else 128 KiB. */
    public int blockSize() {
        return level == SPEED_FASTEST ? 64 << 10 : 128 << 10;
    }

    /**
     * Whether a restart point's segment starts from match tables replayed from the Writer's indexing
     * ({@link IndexReplay}: SpeedBestCompression, which indexes nearly every position), rather than from
     * a warm-up and the slots it left otherwise ({@link SlotPatch}).
     */
    boolean replaysIndexing() {
        return level == SPEED_BEST;
    }

    MatchFinder matchFinder() {
        return switch (level) {
            case SPEED_FASTEST -> new FastMatcher(windowSize());
            case SPEED_DEFAULT -> new DoubleFastMatcher(windowSize());
            case SPEED_BETTER -> new BetterMatcher(windowSize(), release.writesRleBlocks());
            default -> new BestMatcher(windowSize(), release.writesRleBlocks());
        };
    }

    /**
     * Whether the Writer writes this header: a frame it streamed (content over one block) has its
     * window, no size and a checksum; a frame of one block is written whole (EncodeAll), with its
     * size and, above 1 KiB, as a single segment.
     */
    public boolean writesHeader(ZstdFrameHeader header) {
        if (header.dictionaryId() != 0 || !header.checksum()) {
            return false;
        }
        long size = header.contentSize();
        if (size < 0) {
            // streamed, or whole below 256 bytes (no size recorded then, and the smallest window)
            return !header.singleSegment() && header.windowMantissa() == 0
                    && (1 << header.windowLog() == windowSize() || header.windowLog() == KlauspostZstdEncoder.MIN_WINDOW_LOG);
        }
        if (size < 1 || size > blockSize()) {
            return false;
        }
        Bytes expected = new Bytes(16);
        KlauspostZstdEncoder.wholeFrameHeader((int) size, windowSize(), expected);
        return java.util.Arrays.equals(header.bytes(), 0, header.bytes().length, expected.data, 0, expected.length);
    }
}
