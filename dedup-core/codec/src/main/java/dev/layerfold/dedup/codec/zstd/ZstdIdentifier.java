package dev.layerfold.dedup.codec.zstd;

import com.github.luben.zstd.ZstdCompressCtx;
import dev.layerfold.dedup.codec.container.ZstdFrameHeader;
import dev.layerfold.dedup.codec.identify.Identification;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;
import dev.layerfold.dedup.codec.zstd.encoder.ZstdEncoder;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Finds the encoder settings that reproduce a zstd frame, in the pass that splits it.
 *
 * <p>The frame header already narrows them: klauspost/compress/zstd's Writer is tried first where
 * it writes such a header ({@link ZstdEncoders#candidates}), then libzstd, whether the content size
 * was pledged and the checksum flag read off it, only at the levels whose window gives this header
 * ({@link ZstdEncoders#writesHeader}). The frame's content is kept from its start, and once
 * {@link #SINGLE_THREAD_PREFIX} of it (or the whole frame) is there, each single-threaded candidate
 * in turn compresses it and is compared with the original, dropped at its first differing block
 * (a wrong level costs one block of compression). A candidate that reproduced all it wrote, at least
 * the first block, is taken: the rebuild proves the rest. The zstd CLI compresses in a worker thread
 * by default, whose output equals the single-threaded one's for the first blocks and then differs; if
 * a level reproduced the first block single-threaded and then failed, it is tried multi-threaded on
 * up to {@link #MULTI_THREAD_PREFIX} of content (its first job: nothing comes out before it) and
 * taken if it reproduced more than the single-threaded one did.
 *
 * <p>A producer that flushed mid-frame (klauspost's Flush or ReadFrom) ended blocks short where its
 * calls fell: the ends of the blocks read so far are handed to each candidate as its flush points
 * ({@link ZstdEncoders#flushPoints}), and the found encoder's are the frame's ({@link Session#flushPoints}).
 *
 * <p>Frames of one layer come from one producer: the previous frame's encoder is tried first, and
 * once a frame matched nothing the layer cannot be rebuilt, so later frames are not tried at all.
 * Not thread-safe.
 */
public final class ZstdIdentifier {

    static final int SINGLE_THREAD_PREFIX = 1 << 20;
    /** libzstd's largest job below --ultra (levels 17-19: 4x their 8 MiB window), and a block more: its first job then runs. */
    static final int MULTI_THREAD_PREFIX = (32 << 20) + (1 << 20);

    private final ZstdEncoders encoders;
    private final ZstdEncoders.Reusing reusing;
    private EncoderSpec previous;
    private boolean failed;

    public ZstdIdentifier(ZstdEncoders encoders) {
        this.encoders = encoders;
        this.reusing = encoders.reusing();
    }

    /** Starts identifying the next frame of the layer; feed it the frame, then {@link Session#finish}. */
    public Session start(ZstdFrameHeader header) {
        List<EncoderSpec> candidates = new ArrayList<>();
        if (!failed) {
            List<EncoderSpec> all = encoders.candidates(header);
            all.stream().filter(s -> sameButEnding(s, previous)).forEach(candidates::add);
            all.stream().filter(s -> !sameButEnding(s, previous)).forEach(candidates::add);
        }
        return new Session(header, candidates);
    }

    private static boolean sameButEnding(EncoderSpec candidate, EncoderSpec spec) {
        return spec != null && candidate.equals(ZstdEncoders.endingAfterInput(spec, false));
    }

    /** Why a layer whose first unreproduced frame has this header stays as it is, for a person to read. */
    public static String reason(ZstdFrameHeader header) {
        return UnmatchedFrame.reason(header);
    }

    /** One frame being identified. */
    public final class Session {

        private final ZstdFrameHeader header;
        private final List<EncoderSpec> candidates;
        private final Bytes original = new Bytes();
        private final Bytes content = new Bytes();
        /** Where each block before the last ended, as content offsets: kept whole (8 bytes per block) for the recipe's flush points. */
        private long[] blockEnds = new long[16];
        private int blocks;
        /** Read from every block, also once the race is over: whether the frame is klauspost's 1.17.7 rather than 1.18.0. */
        private final RleEvidence rleEvidence = new RleEvidence();
        private int tried;
        private long compared;
        private boolean done;
        private EncoderSpec found;
        private boolean emptyLastBlock;
        private boolean wholeStream;
        private List<Integer> multiThreadLevels = List.of();
        private final List<Long> singleThreadMatched = new ArrayList<>();
        /** One context for every libzstd candidate of the frame, made at the first. */
        private ZstdCompressCtx context;

        private Session(ZstdFrameHeader header, List<EncoderSpec> candidates) {
            this.header = header;
            this.candidates = candidates;
            this.done = candidates.isEmpty();
        }

        /** The original frame's bytes as read, from its magic number on. */
        public void compressed(byte[] data, int offset, int length) {
            if (!done) {
                original.write(data, offset, length);
            }
        }

        /** A block of this type (ZstdFrameHeader.Block's) starts; its bytes and content follow. */
        public void blockStarted(int type) {
            rleEvidence.blockStarted(type);
        }

        /** The frame's decompressed content as decoded. */
        public void content(byte[] data, int offset, int length) {
            rleEvidence.content(data, offset, length);
            if (done) {
                return;
            }
            content.write(data, offset, length);
            if (content.size == header.contentSize()) {
                // A pledged size reached ends the frame in libzstd even without ZSTD_e_end: its checksum is compared at finish()
                return;
            }
            if (multiThreadLevels.isEmpty() && content.size >= SINGLE_THREAD_PREFIX) {
                trySingleThreaded(false);
            } else if (!multiThreadLevels.isEmpty() && content.size >= MULTI_THREAD_PREFIX) {
                tryMultiThreaded(false);
            }
        }

        /** A block other than the frame's last ended here, at this offset of the content: the decoder gave out all of it. */
        public void blockEnded(long contentEnd) {
            rleEvidence.blockEnded();
            if (blocks == blockEnds.length) {
                blockEnds = Arrays.copyOf(blockEnds, blocks * 2);
            }
            blockEnds[blocks++] = contentEnd;
        }

        /** Where the encoder found ({@link #finish}) must flush to end every block where the original did; none if none was found. */
        public long[] flushPoints() {
            return found == null ? new long[0] : flushPoints(found);
        }

        private long[] flushPoints(EncoderSpec candidate) {
            return ZstdEncoders.flushPoints(candidate, Arrays.copyOf(blockEnds, blocks));
        }

        /**
         * The frame ended: the outcome.
         *
         * @param emptyLastBlock whether its last block is an empty one, which libzstd writes when told to
         *                       end after it had compressed all its input ({@link LibzstdSettings#endsAfterInput})
         */
        public Identification finish(boolean emptyLastBlock) {
            this.emptyLastBlock = emptyLastBlock;
            rleEvidence.blockEnded();
            if (!done && multiThreadLevels.isEmpty()) {
                trySingleThreaded(true);
            }
            if (!done && !multiThreadLevels.isEmpty()) {
                tryMultiThreaded(true);
            }
            EncoderSpec spec = found == null ? EncoderSpec.NONE : ZstdEncoders.endingAfterInput(found, emptyLastBlock);
            if (spec.isNone()) {
                failed = true;
            } else {
                previous = ZstdEncoders.forRleEvidence(spec, new RleEvidence());
                spec = ZstdEncoders.forRleEvidence(spec, rleEvidence);
            }
            return new Identification(spec, wholeStream, compared, tried);
        }

        private void trySingleThreaded(boolean whole) {
            List<Integer> promising = new ArrayList<>();
            for (EncoderSpec candidate : candidates) {
                long matched = run(candidate, whole);
                if (matched == Long.MAX_VALUE) {
                    return;
                }
                int level = ZstdEncoders.singleThreadedLibzstdLevel(candidate);
                if (matched >= firstBlockEnd() && level > 0) {
                    promising.add(level);
                    singleThreadMatched.add(matched);
                }
            }
            multiThreadLevels = promising;
            if (promising.isEmpty()) {
                stop();
            }
        }

        private void tryMultiThreaded(boolean whole) {
            for (int i = 0; i < multiThreadLevels.size(); i++) {
                int level = multiThreadLevels.get(i);
                EncoderSpec candidate = new LibzstdSettings(level, 1, header.contentSize() >= 0, header.checksum(), false).spec();
                long matched = run(candidate, whole);
                if (matched == Long.MAX_VALUE) {
                    return;
                }
            }
            stop();
        }

        /** Identification of this frame is over (found or not): its bytes are no longer kept. */
        private void stop() {
            done = true;
            original.release();
            content.release();
            if (context != null) {
                context.close();
                context = null;
            }
        }

        /**
         * Runs one candidate over the content kept. Returns Long.MAX_VALUE if it is taken, else how
         * many of the original's bytes it reproduced before it differed or the content ran out.
         */
        private long run(EncoderSpec settings, boolean whole) {
            // the blocks read so far are all the race compares
            EncoderSpec candidate = ZstdEncoders.endingAfterInput(ZstdEncoders.forRleEvidence(settings, rleEvidence),
                    whole && emptyLastBlock);
            tried++;
            compared = Math.max(compared, content.size);
            Comparison comparison = new Comparison(original);
            if (context == null && candidate.family().equals(ZstdEncoders.LIBZSTD)) {
                context = new ZstdCompressCtx();
            }
            try (ZstdEncoder encoder = reusing.create(candidate, header.contentSize(), flushPoints(candidate), comparison, context)) {
                for (int at = 0; at < content.size && !comparison.differs; at += SINGLE_THREAD_PREFIX / 8) {
                    encoder.write(content.bytes, at, Math.min(SINGLE_THREAD_PREFIX / 8, content.size - at));
                }
                if (!comparison.differs) {
                    if (whole) {
                        encoder.finish();
                    } else {
                        encoder.drain();
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            boolean reproduced = !comparison.differs && (whole ? comparison.matched == original.size : comparison.matched >= firstBlockEnd()
                    && (!withWorkers(candidate) || comparison.matched > singleThreadMatched.get(multiThreadLevels.indexOf(candidate.level()))));
            if (!reproduced) {
                return comparison.matched;
            }
            found = candidate;
            wholeStream = whole;
            stop();
            return Long.MAX_VALUE;
        }

        private static boolean withWorkers(EncoderSpec candidate) {
            return candidate.family().equals(ZstdEncoders.LIBZSTD) && LibzstdSettings.of(candidate).workers() != 0;
        }

        /** Where the original's first block ends: a candidate must reproduce at least that much to be taken. */
        private long firstBlockEnd() {
            int at = header.length();
            if (original.size < at + ZstdFrameHeader.BLOCK_HEADER) {
                return Long.MAX_VALUE - 1;
            }
            return at + ZstdFrameHeader.BLOCK_HEADER + ZstdFrameHeader.Block.decode(original.bytes, at).contentLength();
        }
    }

    /** Compares what a candidate writes with the original frame, noting its first difference. */
    private static final class Comparison extends OutputStream {
        private final Bytes original;
        private long matched;
        private boolean differs;

        Comparison(Bytes original) {
            this.original = original;
        }

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] data, int offset, int length) {
            if (differs) {
                return;
            }
            int comparable = (int) Math.min(length, original.size - matched);
            int mismatch = Arrays.mismatch(data, offset, offset + comparable, original.bytes, (int) matched, (int) matched + comparable);
            if (mismatch >= 0 || comparable < length) {
                matched += mismatch >= 0 ? mismatch : comparable;
                differs = true;
            } else {
                matched += length;
            }
        }
    }

    /** A growing byte array: the start of a frame, kept while it is being identified. */
    private static final class Bytes {
        /** Small at first: zstd:chunked's frames are mostly a few KiB, and a layer has thousands. */
        private byte[] bytes = new byte[4 * 1024];
        private int size;

        void write(byte[] data, int offset, int length) {
            if (size + length > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(size + length, bytes.length * 2));
            }
            System.arraycopy(data, offset, bytes, size, length);
            size += length;
        }

        void release() {
            bytes = new byte[0];
            size = 0;
        }
    }
}
