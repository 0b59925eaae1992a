package dev.layerfold.dedup.codec.zstd;

import com.github.luben.zstd.ZstdCompressCtx;
import dev.layerfold.dedup.codec.container.ZstdFrameHeader;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;
import dev.layerfold.dedup.codec.recipe.ZstdFrame;
import dev.layerfold.dedup.codec.zstd.encoder.FrameProver;
import dev.layerfold.dedup.codec.zstd.encoder.ZstdEncoder;
import dev.layerfold.dedup.codec.zstd.klauspost.KlauspostFrameProver;
import dev.layerfold.dedup.codec.zstd.klauspost.KlauspostSettings;
import dev.layerfold.dedup.codec.zstd.klauspost.KlauspostZstdEncoder;

import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * The zstd encoders real layer producers use, as recipe families. {@value #LIBZSTD}: the C library
 * at the version zstd-jni bundles (the zstd CLI, and programs that call the library), proven equal
 * to that release's own build. Its parameters: worker threads (0 or 1: any number of workers writes
 * the same), 1 if the content size was pledged, 1 for a checksum, 1 if the frame was ended after its
 * input ({@link LibzstdSettings#endsAfterInput}). The family names the library's version because
 * another release writes other bytes (zstd 1.5.4's differ from 1.5.7's at every level): a build
 * whose zstd-jni bundles another version offers no such candidates and refuses to rebuild such
 * frames, saying so, rather than writing a wrong layer. {@value KlauspostSettings#FAMILY}:
 * klauspost/compress/zstd's streaming Writer (podman, buildah, containerd, BuildKit), a Java port
 * ({@link KlauspostSettings}), tried first where the header is one it writes.
 */
public final class ZstdEncoders {

    /** The libzstd release whose output the recipes of family {@value #LIBZSTD} reproduce. */
    public static final String PROVEN_VERSION = "1.5.7";
    public static final String LIBZSTD = "libzstd" + PROVEN_VERSION;
    /** Levels with a window of their own, so a header rules most out; ultra levels 20-22 are not tried. */
    static final int MAX_LEVEL = 19;
    /** Content sizes above which libzstd uses its table for large inputs (and below which it picks other windows). */
    private static final long LARGE_INPUT = 256 * 1024;
    /** Window log per level 1..19 for large or unknown input, libzstd 1.5.7's clevels.h. */
    private static final int[] WINDOW_LOG = {0, 19, 20, 21, 21, 21, 21, 21, 21, 22, 22, 22, 22, 22, 22, 22, 22, 23, 23, 23};
    /**
     * Per level 1..19, what libzstd 1.5.7 takes for the log of the share of a window that a
     * multi-threaded job reloads from the job before (ZSTDMT_overlapLog_default of the level's strategy:
     * 6 for fast to lazy, 7 lazy2 and btlazy2, 8 btopt and btultra, 9 btultra2).
     */
    private static final int[] OVERLAP_LOG = {0, 6, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7, 8, 8, 8, 9};
    /** Tried first: the CLI's and the library's default, then the CLI's usual choices. */
    private static final List<Integer> LEVEL_ORDER = Stream.concat(Stream.of(3, 19, 1, 9),
            IntStream.rangeClosed(1, MAX_LEVEL).boxed().filter(l -> l != 3 && l != 19 && l != 1 && l != 9)).toList();

    private static final ZstdEncoders INSTANCE = new ZstdEncoders(bundledVersion());

    private final String bundledVersion;
    private final boolean klauspost;

    /**
     * Encoders for a zstd-jni bundling libzstd {@code bundledVersion}: another than
     * {@link #PROVEN_VERSION} offers no libzstd candidates.
     */
    public ZstdEncoders(String bundledVersion) {
        this(bundledVersion, true);
    }

    /** As above; {@code klauspost} false offers no klauspost candidates either (how a benchmark splits without identification). */
    public ZstdEncoders(String bundledVersion, boolean klauspost) {
        this.bundledVersion = bundledVersion;
        this.klauspost = klauspost;
    }

    public static ZstdEncoders standard() {
        return INSTANCE;
    }

    /** The libzstd version zstd-jni bundles, from its jar's version (1.5.7-6 bundles 1.5.7), or "unknown". */
    static String bundledVersion() {
        String jni = ZstdCompressCtx.class.getPackage().getImplementationVersion();
        return jni == null ? "unknown" : jni.replaceFirst("-.*", "");
    }

    /** Whether this build can reproduce the {@value #LIBZSTD} family. */
    public boolean available() {
        return bundledVersion.equals(PROVEN_VERSION);
    }

    /** Makes the encoder a recipe names, for a frame of {@code contentSize} bytes. */
    public ZstdEncoder create(EncoderSpec spec, long contentSize, OutputStream sink) {
        return create(spec, contentSize, new long[0], sink, null);
    }

    /** As above, for a frame whose producer flushed partial blocks at these content offsets ({@link #flushPoints}). */
    public ZstdEncoder create(EncoderSpec spec, long contentSize, long[] flushPoints, OutputStream sink) {
        return create(spec, contentSize, flushPoints, sink, null);
    }

    /** Encoders for one layer's frames, made one after another (not thread-safe): see {@link Reusing}. */
    public Reusing reusing() {
        return new Reusing();
    }

    /**
     * Makes the encoders of one layer's frames in turn, keeping the last klauspost encoder made and
     * resetting it for the next frame of the same spec, as the producer resets its Writer between
     * zstd:chunked's files: thousands of small frames then cost no new match tables each. One kept at
     * a time bounds the memory; an encoder must be finished or abandoned before the next is made.
     */
    public final class Reusing {
        private EncoderSpec kept;
        private KlauspostZstdEncoder keptEncoder;

        private Reusing() {
        }

        /** As {@link ZstdEncoders#create(EncoderSpec, long, long[], OutputStream)}. */
        public ZstdEncoder create(EncoderSpec spec, long contentSize, long[] flushPoints, OutputStream sink) {
            return create(spec, contentSize, flushPoints, sink, null);
        }

        ZstdEncoder create(EncoderSpec spec, long contentSize, long[] flushPoints, OutputStream sink, ZstdCompressCtx shared) {
            if (!spec.family().equals(KlauspostSettings.FAMILY)) {
                return ZstdEncoders.this.create(spec, contentSize, flushPoints, sink, shared);
            }
            if (spec.equals(kept)) {
                keptEncoder.reset(flushPoints, sink);
            } else {
                kept = spec;
                keptEncoder = new KlauspostZstdEncoder(KlauspostSettings.of(spec), flushPoints, sink);
            }
            return keptEncoder;
        }
    }

    /** @param shared a context a libzstd encoder resets and uses, left open; null for one of its own */
    ZstdEncoder create(EncoderSpec spec, long contentSize, long[] flushPoints, OutputStream sink, ZstdCompressCtx shared) {
        if (spec.family().equals(KlauspostSettings.FAMILY)) {
            return new KlauspostZstdEncoder(KlauspostSettings.of(spec), flushPoints, sink);
        }
        if (flushPoints.length > 0) {
            throw new IllegalArgumentException("encoder " + spec + " takes no flush points");
        }
        LibzstdSettings settings = LibzstdSettings.of(spec);
        if (!available()) {
            throw new IllegalArgumentException("encoder " + spec + " needs libzstd " + PROVEN_VERSION + ", but zstd-jni bundles "
                    + bundledVersion);
        }
        return new LibzstdEncoder(settings, settings.pledgedSize() ? contentSize : -1, sink, shared);
    }

    /**
     * Single-threaded candidates whose frame header would be this one, most likely first (libzstd's
     * multi-threaded ones follow from them): klauspost's Writer at the levels whose header this is
     * (a window of 8 MiB, or 4 at SpeedFastest, no size and a checksum: the podman and containerd
     * default first), then libzstd's levels.
     */
    List<EncoderSpec> candidates(ZstdFrameHeader header) {
        List<EncoderSpec> candidates = new ArrayList<>();
        if (klauspost) {
            for (int level : KlauspostSettings.LEVELS) {
                for (KlauspostSettings.Release release : KlauspostSettings.Release.values()) {
                    if (!release.raced()) {
                        continue;
                    }
                    KlauspostSettings settings = new KlauspostSettings(level, release);
                    if (settings.writesHeader(header)) {
                        candidates.add(settings.spec());
                    }
                }
            }
        }
        if (!available() || header.dictionaryId() != 0 || header.windowMantissa() != 0) {
            return candidates;
        }
        boolean pledged = header.contentSize() >= 0;
        for (int level : LEVEL_ORDER) {
            if (writesHeader(level, header)) {
                candidates.add(new LibzstdSettings(level, 0, pledged, header.checksum(), false).spec());
            }
        }
        return candidates;
    }

    /**
     * Where the producer of a frame this encoder wrote must have flushed: the ends of its blocks
     * before the last ({@code blockEnds}, content offsets) where a block holds less than the
     * encoder's block size. klauspost's Writer only; libzstd decides its blocks itself (none).
     */
    public static long[] flushPoints(EncoderSpec spec, long[] blockEnds) {
        if (!spec.family().equals(KlauspostSettings.FAMILY)) {
            return new long[0];
        }
        int blockSize = KlauspostSettings.of(spec).blockSize();
        return IntStream.range(0, blockEnds.length).filter(i -> blockEnds[i] - (i == 0 ? 0 : blockEnds[i - 1]) != blockSize)
                .mapToLong(i -> blockEnds[i]).toArray();
    }

    /**
     * klauspost's 1.18.0 generation or 1.17.7's, which write the same but for blocks of one repeated
     * byte, as the frame's blocks call for ({@link RleEvidence#writtenWithoutRleBlocks}): raced as
     * 1.18.0, told apart here. Other encoders as they are; with no evidence, 1.18.0's as raced.
     */
    static EncoderSpec forRleEvidence(EncoderSpec spec, RleEvidence evidence) {
        if (!spec.family().equals(KlauspostSettings.FAMILY)) {
            return spec;
        }
        KlauspostSettings settings = KlauspostSettings.of(spec);
        if (settings.release() != KlauspostSettings.Release.COMPRESS_1_18_0 && settings.release() != KlauspostSettings.Release.COMPRESS_1_17_7) {
            return spec;
        }
        boolean is1177 = evidence.writtenWithoutRleBlocks(settings.level());
        return new KlauspostSettings(settings.level(), is1177 ? KlauspostSettings.Release.COMPRESS_1_17_7 : KlauspostSettings.Release.COMPRESS_1_18_0)
                .spec();
    }

    /** The same encoder told to end its frame after its input or with it: only libzstd's output depends on it. */
    static EncoderSpec endingAfterInput(EncoderSpec spec, boolean after) {
        return spec.family().equals(LIBZSTD) ? LibzstdSettings.of(spec).endingAfterInput(after).spec() : spec;
    }

    /** The libzstd level of a single-threaded libzstd candidate, which may have written the frame with workers; else 0. */
    static int singleThreadedLibzstdLevel(EncoderSpec spec) {
        return spec.family().equals(LIBZSTD) && LibzstdSettings.of(spec).workers() == 0 ? spec.level() : 0;
    }

    /** libzstd's window log at {@code level} for content larger than that window. */
    static int windowLog(int level) {
        return WINDOW_LOG[level];
    }

    /** ZSTDMT's overlap log at {@code level} ({@link #OVERLAP_LOG}). */
    static int overlapLog(int level) {
        return OVERLAP_LOG[level];
    }

    /**
     * Whether libzstd at {@code level} writes this header's window: with the size unknown, its
     * level's window; with it pledged, a single segment if the content fits that window (which it
     * then shrinks to), else the level's window. Small inputs use other tables: every level is tried.
     */
    static boolean writesHeader(int level, ZstdFrameHeader header) {
        long size = header.contentSize();
        if (size >= 0 && size <= LARGE_INPUT) {
            return true;
        }
        int windowLog = WINDOW_LOG[level];
        boolean singleSegment = size >= 0 && size <= 1L << windowLog;
        return header.singleSegment() == singleSegment && (singleSegment || header.windowLog() == windowLog);
    }

    /** The prover of {@code frame}'s encoder, pieces about {@code spacing} bytes of content apart, or empty if it has no restart points. */
    public static Optional<FrameProver> prover(ZstdFrame.Compressed frame, long spacing, OutputStream sink) {
        if (LibzstdFrameProver.proves(frame, spacing)) {
            return Optional.of(new LibzstdFrameProver(LibzstdJobs.of(frame).orElseThrow(), frame, spacing, sink));
        }
        return KlauspostFrameProver.of(frame, spacing, sink).map(FrameProver.class::cast);
    }

    /** Whether {@link #prover} gives a prover for {@code frame}. */
    public static boolean proves(ZstdFrame.Compressed frame, long spacing) {
        return LibzstdFrameProver.proves(frame, spacing) || KlauspostFrameProver.proves(frame, spacing);
    }
}
