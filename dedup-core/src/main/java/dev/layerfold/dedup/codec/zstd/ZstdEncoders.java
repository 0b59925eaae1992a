package dev.layerfold.dedup.codec.zstd;

import com.github.luben.zstd.ZstdCompressCtx;
import dev.layerfold.dedup.codec.container.ZstdFrameHeader;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;

import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * The zstd encoders real layer producers use, as recipe families. One so far:
 * {@value #LIBZSTD}, the C library at the version zstd-jni bundles (the zstd CLI, and programs that
 * call the library), proven equal to that release's own build. Its parameters: worker threads (0 or
 * 1: any number of workers writes the same), 1 if the content size was pledged, 1 for a checksum, 1
 * if the frame was ended after its input ({@link LibzstdSettings#endsAfterInput}).
 * The family names the library's version because another release writes other bytes (zstd 1.5.4's
 * differ from 1.5.7's at every level): a build whose zstd-jni bundles another version offers no
 * candidates and refuses to rebuild such frames, saying so, rather than writing a wrong layer.
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
    /** Tried first: the CLI's and the library's default, then the CLI's usual choices. */
    private static final List<Integer> LEVEL_ORDER = Stream.concat(Stream.of(3, 19, 1, 9),
            IntStream.rangeClosed(1, MAX_LEVEL).boxed().filter(l -> l != 3 && l != 19 && l != 1 && l != 9)).toList();

    private static final ZstdEncoders INSTANCE = new ZstdEncoders(bundledVersion());

    private final String bundledVersion;

    /**
     * Encoders for a zstd-jni bundling libzstd {@code bundledVersion}: another than
     * {@link #PROVEN_VERSION} offers no candidates (how a benchmark splits without identification).
     */
    public ZstdEncoders(String bundledVersion) {
        this.bundledVersion = bundledVersion;
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
        LibzstdSettings settings = LibzstdSettings.of(spec);
        return create(settings, settings.pledgedSize() ? contentSize : -1, sink, null);
    }

    /** @param shared a context the encoder resets and uses, left open; null for one of its own */
    ZstdEncoder create(LibzstdSettings settings, long pledgedSize, OutputStream sink, ZstdCompressCtx shared) {
        if (!available()) {
            throw new IllegalArgumentException("encoder " + settings.spec() + " needs libzstd " + PROVEN_VERSION + ", but zstd-jni bundles "
                    + bundledVersion);
        }
        return new LibzstdEncoder(settings, pledgedSize, sink, shared);
    }

    /** Single-threaded candidates whose frame header would be this one, most likely first (multi-threaded ones follow from them). */
    List<LibzstdSettings> candidates(ZstdFrameHeader header) {
        List<LibzstdSettings> candidates = new ArrayList<>();
        if (!available() || header.dictionaryId() != 0 || header.windowMantissa() != 0) {
            return candidates;
        }
        boolean pledged = header.contentSize() >= 0;
        for (int level : LEVEL_ORDER) {
            if (writesHeader(level, header)) {
                candidates.add(new LibzstdSettings(level, 0, pledged, header.checksum(), false));
            }
        }
        return candidates;
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
}
