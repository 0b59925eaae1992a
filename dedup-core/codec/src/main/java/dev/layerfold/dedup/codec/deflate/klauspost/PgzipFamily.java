package dev.layerfold.dedup.codec.deflate.klauspost;

import dev.layerfold.dedup.codec.container.GzipHeader;
import dev.layerfold.dedup.codec.deflate.DeflateEncoder;
import dev.layerfold.dedup.codec.deflate.golang.GoFamily;
import dev.layerfold.dedup.codec.family.EncoderFamily;
import dev.layerfold.dedup.codec.family.FirstBlock;
import dev.layerfold.dedup.codec.io.CountingOutput;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;
import dev.layerfold.dedup.codec.restart.BlockAlignedSegment;
import dev.layerfold.dedup.codec.restart.RestartSupport;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@value #NAME}: klauspost/pgzip over klauspost/compress's flate; the level (-1 is klauspost's
 * default, 5), then the block size, then for klauspost/compress before 1.18.2 its version
 * ({@code 11306}: 1.12.3 to 1.13.6, levels -2 to 2 and 4 to 6 only, {@code 11404}: 1.14.2 to 1.14.4,
 * {@code 11509}: 1.15.0 to 1.15.9, {@code 11510}: 1.15.10, {@code 11512}: 1.15.11 to 1.15.13,
 * {@code 11711}: 1.15.15 to 1.17.11, {@code 11800}: 1.18.0, {@code 11902}: 1.18.2 to 1.19.2; none:
 * 1.20.x). podman, buildah, skopeo and CRI-O write -1 with 1 MiB.
 */
public final class PgzipFamily implements EncoderFamily {

    public static final String NAME = "pgzip";
    /** Input of pgzip's second block a klauspost candidate reproduces before it is taken over a twin. */
    private static final long PRIMED_INPUT = 256 << 10;
    /** pgzip's default level runs right after Go's level 5, before Go 1.27's. */
    private static final int RANK_AFTER_GO = 10;
    /** Level 9 runs after every other family's candidates. */
    private static final int RANK_LEVEL_9 = 5000;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<Candidate> candidates() {
        List<Candidate> list = new ArrayList<>();
        // containers/image (podman, buildah, skopeo, CRI-O): pgzip.NewWriter, its default level and
        // blocks, which Go 1.27's level 5 matches up to the first block boundary: pgzip, far more
        // common, runs first. Level 5 is one output in klauspost/compress 1.15.10 to 1.18.0 (podman
        // 4.3 to 5.8, skopeo 1.10 to 1.22), another from 1.18.1 on, a third in 1.15.0 to 1.15.9
        // (podman 4.1 and 4.2, buildah 1.27, skopeo 1.9), a fourth in 1.14.1 to 1.14.4 (podman 4.0,
        // buildah 1.24) and a fifth in 1.12.3 to 1.13.6 (Ubuntu 22.04's podman 3.4, buildah 1.23, skopeo 1.4).
        int rank = GoFamily.LEVEL_RANK_STEP * GoFamily.LEVEL_ORDER.indexOf(5) + RANK_AFTER_GO;
        list.add(new Candidate(EncoderSpec.of(NAME, -1, PgzipEncoder.DEFAULT_BLOCK_SIZE), rank++));
        for (int release : new int[] {11800, 11509, 11404, 11306}) {
            list.add(new Candidate(EncoderSpec.of(NAME, -1, PgzipEncoder.DEFAULT_BLOCK_SIZE, release), rank++));
        }
        // pgzip with --dest-compress-level 9 (skopeo, podman push --compression-level), per compress release;
        // 1.14.2 to 1.15.10 write 1.15.12's level 9.
        // Level 9 of 1.18.2 to 1.19.2 (no release pins it yet) is no candidate: it differs from 1.20's only in
        // whether the first deflate block after each block boundary counts as storable, which may show late.
        rank = RANK_LEVEL_9;
        list.add(new Candidate(EncoderSpec.of(NAME, 9, PgzipEncoder.DEFAULT_BLOCK_SIZE), rank++));
        for (int release : new int[] {11800, 11512}) {
            list.add(new Candidate(EncoderSpec.of(NAME, 9, PgzipEncoder.DEFAULT_BLOCK_SIZE, release), rank++));
        }
        return list;
    }

    @Override
    public PgzipSpec decode(EncoderSpec spec) {
        return PgzipSpec.decode(spec);
    }

    @Override
    public DeflateEncoder encoder(EncoderSpec spec, OutputStream sink) {
        PgzipSpec pgzip = PgzipSpec.decode(spec);
        return PgzipEncoder.create(sink, pgzip.level(), pgzip.blockSize(), pgzip.release());
    }

    /** As Go 1.27 within each of its blocks, which end with a flush. */
    @Override
    public boolean couldHaveWritten(EncoderSpec spec, FirstBlock first) {
        return klauspostCouldHaveWritten(spec.level() == -1 ? 5 : spec.level(), first);
    }

    /**
     * klauspost's deflate at {@code level}: after a whole number of 65535-byte windows (levels 1 to 6,
     * a table may span several), at a whole number of 32768 tokens (7 to 9), of 32768-byte windows
     * (Huffman-only); level 0 writes stored blocks only.
     */
    static boolean klauspostCouldHaveWritten(int level, FirstBlock first) {
        return switch (level) {
            case 0 -> false;
            case -2 -> first.inputBytes() % 32768 == 0;
            case 7, 8, 9 -> first.symbols() % 32768 == 0;
            default -> first.inputBytes() % 65535 == 0;
        };
    }

    @Override
    public int osScore(EncoderSpec spec, int os) {
        return os == GzipHeader.OS_UNKNOWN ? 2 : 0;
    }

    @Override
    public long inputToTellApart(EncoderSpec running, List<EncoderSpec> waiting) {
        return klauspostInputToTellApart(running, waiting);
    }

    /**
     * klauspost's deflate at one level (Go 1.27's and pgzip's over any compress release) can write the
     * same bytes up to pgzip's first block boundary, or, between compress releases, through a block
     * whose header lists every code; so a klauspost candidate is taken before a waiting one of the
     * same level only once it reproduced pgzip's first block and {@link #PRIMED_INPUT} of the next,
     * primed by its tail, whose first blocks' headers the releases write differently again.
     */
    static long klauspostInputToTellApart(EncoderSpec running, List<EncoderSpec> waiting) {
        if (!klauspost(running)) {
            return 0;
        }
        long input = 0;
        for (EncoderSpec other : waiting) {
            if (klauspost(other) && mayAgreeForLong(deflateLevel(other), deflateLevel(running))) {
                EncoderSpec pgzip = running.family().equals(NAME) ? running : other;
                input = Math.max(input, pgzip.family().equals(NAME) ? PgzipSpec.decode(pgzip).blockSize() + PRIMED_INPUT : 0);
            }
        }
        return input;
    }

    /**
     * Whether two klauspost levels can write the same bytes far into a stream: one level with itself,
     * and levels 5 and 6, whose matchers find the same matches on some input for longer than
     * {@code EncoderIdentifier.SETTLED_BYTES} (buildah 1.28's pgzip, klauspost/compress 1.15.12 at its
     * default level 5, over a layer holding a Go program: Go 1.27's level 6 reproduced its first 64 KiB).
     */
    private static boolean mayAgreeForLong(int level, int otherLevel) {
        return level == otherLevel || Math.min(level, otherLevel) == 5 && Math.max(level, otherLevel) == 6;
    }

    private static boolean klauspost(EncoderSpec spec) {
        return spec.family().equals(Go127Family.NAME) || spec.family().equals(NAME) && !spec.params().isEmpty();
    }

    /** The deflate level a klauspost spec runs: -1 is Go's default (6) for go127, klauspost's (5) for pgzip. */
    private static int deflateLevel(EncoderSpec spec) {
        return spec.level() != -1 ? spec.level() : spec.family().equals(NAME) ? 5 : 6;
    }

    /**
     * Like pigz's, every block is compressed from a reset stream with the previous 16 KiB as
     * dictionary and ends on a byte boundary: points lie at block boundaries and need no state values.
     * pgzip compresses a block as soon as it is full: at a point there is nothing left to write.
     */
    @Override
    public Optional<RestartSupport> restart(EncoderSpec spec) {
        if (spec.params().isEmpty()) {
            return Optional.empty();
        }
        PgzipSpec pgzip = PgzipSpec.decode(spec);
        int block = pgzip.blockSize();
        return Optional.of(RestartSupport.everyBlock(block, RestartSupport.HISTORY, (point, end, history, offset, length, out) -> {
            CountingOutput counted = BlockAlignedSegment.requireBlockAligned(NAME, block, false, point, end, out);
            PgzipEncoder encoder = PgzipEncoder.resume(counted, pgzip.level(), block, pgzip.release(), history, offset, length);
            return new BlockAlignedSegment(point, end, counted) {
                @Override
                protected void encode(byte[] data, int off, int len) throws IOException {
                    encoder.write(data, off, len);
                }

                @Override
                protected List<Integer> endBlock() {
                    return List.of();
                }

                @Override
                public void finish() throws IOException {
                    encoder.finish();
                }
            };
        }));
    }
}
