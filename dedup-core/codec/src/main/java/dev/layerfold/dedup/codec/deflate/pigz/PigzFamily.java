package dev.layerfold.dedup.codec.deflate.pigz;

import dev.layerfold.dedup.codec.container.GzipHeader;
import dev.layerfold.dedup.codec.deflate.DeflateEncoder;
import dev.layerfold.dedup.codec.deflate.zlib.LazyRestartState;
import dev.layerfold.dedup.codec.deflate.zlib.ZlibFamily;
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
 * {@value #NAME}: pigz's block framing over zlib; the level, then block size, 1 if
 * {@code --independent}, 1 if compressed in a single thread. Debian images use {@code pigz -9}.
 */
public final class PigzFamily implements EncoderFamily {

    public static final String NAME = "pigz";
    /** After zlib, before GNU gzip. */
    private static final int RANK = 3000;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<Candidate> candidates() {
        List<Candidate> list = new ArrayList<>();
        for (int singleThread : new int[] {0, 1}) {
            for (int level : new int[] {9, 6}) {
                list.add(new Candidate(EncoderSpec.of(NAME, level, PigzSettings.DEFAULT_BLOCK_SIZE, 0, singleThread), RANK + list.size()));
            }
        }
        return list;
    }

    @Override
    public PigzSettings decode(EncoderSpec spec) {
        return settings(spec);
    }

    @Override
    public DeflateEncoder encoder(EncoderSpec spec, OutputStream sink) {
        return PigzEncoder.create(sink, settings(spec));
    }

    /** The pigz options a {@code pigz} spec names. */
    public static PigzSettings settings(EncoderSpec spec) {
        List<Integer> p = spec.params();
        if (p.size() != 3) {
            throw new IllegalArgumentException("encoder " + spec + " needs 3 parameters, has " + p.size());
        }
        return new PigzSettings(spec.level(), p.get(0), p.get(1) != 0, p.get(2) != 0);
    }

    /** As zlib, and also at the end of each of its blocks of input. */
    @Override
    public boolean couldHaveWritten(EncoderSpec spec, FirstBlock first) {
        return spec.level() != 0 && (first.symbols() == ZlibFamily.symbolBuffer(8) || first.inputBytes() % settings(spec).blockSize() == 0);
    }

    @Override
    public int osScore(EncoderSpec spec, int os) {
        return os == GzipHeader.OS_UNIX ? 4 : 0;
    }

    /**
     * <ul>
     *   <li>Several threads (the default code path): every block is compressed from a reset stream with
     *       the previous 32 KiB as dictionary and ends on a byte boundary; points lie at block boundaries
     *       and need no state values.</li>
     *   <li>One thread ({@code -p 1}) at levels 4 to 9: one zlib stream, but every block ends with Z_BLOCK
     *       and is padded to a byte, which leaves zlib nothing pending; points lie at block boundaries,
     *       byte aligned, and carry {@link LazyRestartState}'s four values (the last three always 0, 2, 0),
     *       the chains rebuilt from 32 KiB ({@link PigzEncoder#resumeStream}).</li>
     * </ul>
     */
    @Override
    public Optional<RestartSupport> restart(EncoderSpec spec) {
        PigzSettings settings = settings(spec);
        if (settings.singleThread() && !PigzEncoder.streamResumable(settings)) {
            return Optional.empty();
        }
        return Optional.of(RestartSupport.everyBlock(settings.blockSize(), RestartSupport.HISTORY, (point, end, history, offset, length, out) -> {
            CountingOutput counted = BlockAlignedSegment.requireBlockAligned(NAME, settings.blockSize(), settings.singleThread(), point, end, out);
            PigzEncoder pigz = point.inputOffset() == 0 ? PigzEncoder.create(counted, settings)
                    : settings.singleThread() ? PigzEncoder.resumeStream(counted, settings, LazyRestartState.of(point.inputOffset(), point.state()),
                            history, offset, length)
                    : PigzEncoder.resume(counted, settings, history, offset, length);
            return new BlockAlignedSegment(point, end, counted) {
                @Override
                protected void encode(byte[] data, int off, int len) throws IOException {
                    pigz.write(data, off, len);
                }

                @Override
                protected List<Integer> endBlock() throws IOException {
                    pigz.endBlock();
                    return settings.singleThread() ? pigz.streamBoundary().values() : List.of();
                }

                @Override
                public void finish() throws IOException {
                    pigz.finish();
                }
            };
        }));
    }
}
