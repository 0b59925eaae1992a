package dev.layerfold.dedup.codec.identify;

import dev.layerfold.dedup.codec.deflate.DeflateEncoder;
import dev.layerfold.dedup.codec.deflate.FlushBeforeFinish;
import dev.layerfold.dedup.codec.deflate.SyncFlushEncoder;
import dev.layerfold.dedup.codec.deflate.golang.GoFlateEncoder;
import dev.layerfold.dedup.codec.deflate.klauspost.FlateRelease;
import dev.layerfold.dedup.codec.deflate.klauspost.KlauspostFlateEncoder;
import dev.layerfold.dedup.codec.deflate.klauspost.PgzipEncoder;
import dev.layerfold.dedup.codec.deflate.pigz.PigzEncoder;
import dev.layerfold.dedup.codec.deflate.zlib.GnuGzipEncoder;
import dev.layerfold.dedup.codec.deflate.pigz.PigzSettings;
import dev.layerfold.dedup.codec.deflate.zlib.ZlibEncoder;
import dev.layerfold.dedup.codec.deflate.zlib.ZlibSettings;
import dev.layerfold.dedup.codec.deflate.zlib.ZlibStrategy;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;

import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The encoders real layer producers use, as recipe families, and the candidates tried for every
 * gzip member:
 * <ul>
 *   <li>{@code go}: Go's compress/flate of Go 1.8 to 1.26; the level (-2..9), and 1 for a stream
 *       sync-flushed before its end (eStargz). docker, buildkit, containerd write level 6, crane, ko
 *       and kaniko level 1, eStargz level 9 flushed.</li>
 *   <li>{@code go127}: Go's compress/flate since Go 1.27 (klauspost/compress's encoder); the level
 *       only (-2..9). The same tools, built with Go 1.27 or later.</li>
 *   <li>{@code zlib}: zlib; the level, then optionally memLevel, windowBits and strategy (zlib's
 *       numbering) when they differ from zlib's defaults. Jib and Java write 6, Python 9.</li>
 *   <li>{@code gzip}: GNU gzip's own deflate; the level only (1..9). Scripts and older tools.</li>
 *   <li>{@code pgzip}: klauspost/pgzip over klauspost/compress's flate; the level (-1 is klauspost's
 *       default, 5), then the block size, then for klauspost/compress before 1.18.2 its version
 *       ({@code 11306}: 1.12.3 to 1.13.6, levels -2 to 2 and 4 to 6 only, {@code 11404}: 1.14.2 to 1.14.4, {@code 11509}: 1.15.0 to 1.15.9, {@code 11510}: 1.15.10, {@code 11512}: 1.15.11 to 1.15.13,
 *       {@code 11711}: 1.15.15 to 1.17.11, {@code 11800}: 1.18.0,
 *       {@code 11902}: 1.18.2 to 1.19.2; none: 1.20.x). podman, buildah, skopeo and CRI-O write -1 with 1 MiB.</li>
 *   <li>{@code pigz}: pigz's block framing over zlib; the level, then block size, 1 if
 *       {@code --independent}, 1 if compressed in a single thread. Debian images use {@code pigz -9}.</li>
 * </ul>
 */
public final class StandardEncoders implements EncoderFactory {

    public static final String GO = "go";
    public static final String GO127 = "go127";
    public static final String ZLIB = "zlib";
    public static final String PIGZ = "pigz";
    public static final String GNU_GZIP = "gzip";
    public static final String PGZIP = "pgzip";
    /** The last {@code pgzip} parameter naming an older klauspost/compress: its version, major * 10000 + minor * 100 + patch. */
    private static final Map<Integer, FlateRelease> PGZIP_RELEASES = Map.of(
            11306, FlateRelease.COMPRESS_1_13_6, 11404, FlateRelease.COMPRESS_1_14_4, 11509, FlateRelease.COMPRESS_1_15_9, 11510, FlateRelease.COMPRESS_1_15_10,
            11512, FlateRelease.COMPRESS_1_15_12, 11711, FlateRelease.COMPRESS_1_17_11, 11800, FlateRelease.COMPRESS_1_18_0,
            11902, FlateRelease.COMPRESS_1_19_2);
    /** Input of pgzip's second block a klauspost candidate reproduces before it is taken over a twin. */
    private static final long PRIMED_INPUT = 256 << 10;
    /** The {@code go} and {@code go127} parameter of a stream sync-flushed right before its end. */
    public static final int FLUSHED_BEFORE_FINISH = 1;

    /** Most likely first (hints reorder them per member); extend by appending. */
    public static final List<EncoderSpec> CANDIDATES = candidates();

    private static final StandardEncoders INSTANCE = new StandardEncoders();

    private StandardEncoders() {
    }

    public static StandardEncoders factory() {
        return INSTANCE;
    }

    public static EncoderIdentifier identifier() {
        return new EncoderIdentifier(CANDIDATES, INSTANCE, EncoderIdentifier.DEFAULT_BUDGET);
    }

    @Override
    public DeflateEncoder create(EncoderSpec spec, OutputStream sink) {
        List<Integer> p = spec.params();
        return switch (spec.family()) {
            case GO -> flushedIfAsked(spec, GoFlateEncoder.create(sink, spec.level()));
            case GO127 -> flushedIfAsked(spec, KlauspostFlateEncoder.go127(sink, spec.level()));
            case ZLIB -> {
                if (p.isEmpty()) {
                    yield ZlibEncoder.create(sink, spec.level());
                }
                requireParams(spec, 3);
                yield ZlibEncoder.create(sink, new ZlibSettings(spec.level(), p.get(0), p.get(1), strategy(spec, p.get(2))));
            }
            case GNU_GZIP -> {
                requireParams(spec, 0);
                yield GnuGzipEncoder.create(sink, spec.level());
            }
            case PGZIP -> {
                FlateRelease release = pgzipRelease(spec);
                yield PgzipEncoder.create(sink, spec.level(), p.get(0), release);
            }
            case PIGZ -> PigzEncoder.create(sink, pigzSettings(spec));
            default -> throw new IllegalArgumentException("unknown encoder family " + spec.family() + " in " + spec);
        };
    }

    /** The pigz options a {@code pigz} spec names. */
    public static PigzSettings pigzSettings(EncoderSpec spec) {
        requireParams(spec, 3);
        List<Integer> p = spec.params();
        return new PigzSettings(spec.level(), p.get(0), p.get(1) != 0, p.get(2) != 0);
    }

    /** The klauspost/compress release a {@code pgzip} spec names. */
    public static FlateRelease pgzipRelease(EncoderSpec spec) {
        List<Integer> p = spec.params();
        if (p.size() == 1) {
            return FlateRelease.COMPRESS_1_20_3;
        }
        if (p.size() == 2 && PGZIP_RELEASES.containsKey(p.get(1))) {
            return PGZIP_RELEASES.get(p.get(1));
        }
        throw new IllegalArgumentException("encoder " + spec + " needs the block size, then optionally the klauspost/compress release, one of "
                + new TreeSet<>(PGZIP_RELEASES.keySet()));
    }

    /**
     * klauspost's deflate at one level (Go 1.27's and pgzip's over any compress release) can write the
     * same bytes up to pgzip's first block boundary, or, between compress releases, through a block
     * whose header lists every code; so a klauspost candidate is taken before a waiting one of the
     * same level only once it reproduced pgzip's first block and {@link #PRIMED_INPUT} of the next,
     * primed by its tail, whose first blocks' headers the releases write differently again.
     */
    @Override
    public long inputToTellApart(EncoderSpec running, List<EncoderSpec> waiting) {
        if (!klauspost(running)) {
            return 0;
        }
        long input = 0;
        for (EncoderSpec other : waiting) {
            if (klauspost(other) && mayAgreeForLong(deflateLevel(other), deflateLevel(running))) {
                EncoderSpec pgzip = running.family().equals(PGZIP) ? running : other;
                input = Math.max(input, pgzip.family().equals(PGZIP) ? pgzip.params().getFirst() + PRIMED_INPUT : 0);
            }
        }
        return input;
    }

    /**
     * Whether two klauspost levels can write the same bytes far into a stream: one level with itself,
     * and levels 5 and 6, whose matchers find the same matches on some input for longer than
     * {@link EncoderIdentifier#SETTLED_BYTES} (buildah 1.28's pgzip, klauspost/compress 1.15.12 at its
     * default level 5, over a layer holding a Go program: Go 1.27's level 6 reproduced its first 64 KiB).
     */
    private static boolean mayAgreeForLong(int level, int otherLevel) {
        return level == otherLevel || Math.min(level, otherLevel) == 5 && Math.max(level, otherLevel) == 6;
    }

    private static boolean klauspost(EncoderSpec spec) {
        return spec.family().equals(GO127) || spec.family().equals(PGZIP) && !spec.params().isEmpty();
    }

    /** The deflate level a klauspost spec runs: -1 is Go's default (6) for go127, klauspost's (5) for pgzip. */
    private static int deflateLevel(EncoderSpec spec) {
        return spec.level() != -1 ? spec.level() : spec.family().equals(PGZIP) ? 5 : 6;
    }

    /** eStargz's members: Go's gzip writer flushed, then closed. */
    @Override
    public Optional<EncoderSpec> flushedBeforeFinish(EncoderSpec spec) {
        boolean go = spec.family().equals(GO) || spec.family().equals(GO127);
        return go && spec.params().isEmpty() ? Optional.of(EncoderSpec.of(spec.family(), spec.level(), FLUSHED_BEFORE_FINISH)) : Optional.empty();
    }

    /** Go 1.27's level 0 is Go 1.26's stored blocks but for its final empty block, a fixed-Huffman one. */
    @Override
    public Optional<EncoderSpec> closedWithFixedBlock(EncoderSpec spec) {
        return spec.family().equals(GO) && spec.level() == 0 ? Optional.of(new EncoderSpec(GO127, 0, spec.params())) : Optional.empty();
    }

    private static List<EncoderSpec> candidates() {
        List<EncoderSpec> list = new ArrayList<>();
        // Go before and since 1.27 side by side, level by level: the header cannot tell them apart.
        for (int level : new int[] {6, 1, 9, 2, 3, 4, 5, 7, 8, -2, 0}) {
            list.add(EncoderSpec.of(GO, level));
            if (level == 5) {
                // containers/image (podman, buildah, skopeo, CRI-O): pgzip.NewWriter, its default level and
                // blocks, which Go 1.27's level 5 matches up to the first block boundary: pgzip, far more
                // common, runs first. Level 5 is one output in klauspost/compress 1.15.10 to 1.18.0 (podman
                // 4.3 to 5.8, skopeo 1.10 to 1.22), another from 1.18.1 on, a third in 1.15.0 to 1.15.9
                // (podman 4.1 and 4.2, buildah 1.27, skopeo 1.9), a fourth in 1.14.1 to 1.14.4 (podman 4.0,
                // buildah 1.24) and a fifth in 1.12.3 to 1.13.6 (Ubuntu 22.04's podman 3.4, buildah 1.23, skopeo 1.4).
                list.add(EncoderSpec.of(PGZIP, -1, PgzipEncoder.DEFAULT_BLOCK_SIZE));
                list.add(EncoderSpec.of(PGZIP, -1, PgzipEncoder.DEFAULT_BLOCK_SIZE, 11800));
                list.add(EncoderSpec.of(PGZIP, -1, PgzipEncoder.DEFAULT_BLOCK_SIZE, 11509));
                list.add(EncoderSpec.of(PGZIP, -1, PgzipEncoder.DEFAULT_BLOCK_SIZE, 11404));
                list.add(EncoderSpec.of(PGZIP, -1, PgzipEncoder.DEFAULT_BLOCK_SIZE, 11306));
            }
            list.add(EncoderSpec.of(GO127, level));
        }
        for (int level : new int[] {6, 9, 1, 2, 3, 4, 5, 7, 8, 0}) {
            list.add(EncoderSpec.of(ZLIB, level));
        }
        for (int singleThread : new int[] {0, 1}) {
            for (int level : new int[] {9, 6}) {
                list.add(EncoderSpec.of(PIGZ, level, PigzSettings.DEFAULT_BLOCK_SIZE, 0, singleThread));
            }
        }
        for (int level : new int[] {6, 9, 1, 2, 3, 4, 5, 7, 8}) {
            list.add(EncoderSpec.of(GNU_GZIP, level));
        }
        // pgzip with --dest-compress-level 9 (skopeo, podman push --compression-level), per compress release;
        // 1.14.2 to 1.15.10 write 1.15.12's level 9.
        // Level 9 of 1.18.2 to 1.19.2 (no release pins it yet) is no candidate: it differs from 1.20's only in
        // whether the first deflate block after each block boundary counts as storable, which may show late.
        list.add(EncoderSpec.of(PGZIP, 9, PgzipEncoder.DEFAULT_BLOCK_SIZE));
        list.add(EncoderSpec.of(PGZIP, 9, PgzipEncoder.DEFAULT_BLOCK_SIZE, 11800));
        list.add(EncoderSpec.of(PGZIP, 9, PgzipEncoder.DEFAULT_BLOCK_SIZE, 11512));
        return List.copyOf(list);
    }

    /** No params: the stream as written; {@code 1}: sync-flushed before it was closed, as eStargz does. */
    private static DeflateEncoder flushedIfAsked(EncoderSpec spec, SyncFlushEncoder encoder) {
        if (spec.params().isEmpty()) {
            return encoder;
        }
        if (!spec.params().equals(List.of(FLUSHED_BEFORE_FINISH))) {
            throw new IllegalArgumentException("encoder " + spec + " has unknown parameters: " + spec.family() + " takes none, or "
                    + FLUSHED_BEFORE_FINISH + " for a stream flushed before its end");
        }
        return new FlushBeforeFinish(encoder);
    }

    private static void requireParams(EncoderSpec spec, int count) {
        if (spec.params().size() != count) {
            throw new IllegalArgumentException("encoder " + spec + " needs " + count + " parameters, has " + spec.params().size());
        }
    }

    private static ZlibStrategy strategy(EncoderSpec spec, int value) {
        if (value < 0 || value >= ZlibStrategy.values().length) {
            throw new IllegalArgumentException("encoder " + spec + " names unknown zlib strategy " + value);
        }
        return ZlibStrategy.values()[value];
    }
}
