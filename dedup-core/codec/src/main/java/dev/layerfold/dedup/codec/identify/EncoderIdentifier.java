package dev.layerfold.dedup.codec.identify;

import dev.layerfold.dedup.codec.container.DeflateMember;
import dev.layerfold.dedup.codec.container.GzipHeader;
import dev.layerfold.dedup.codec.family.FirstBlock;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Finds the encoder and settings that reproduce a gzip member, in the same pass that splits it.
 *
 * <p>Candidates start once the original's first block is decoded (at most {@link FirstBlock#MAX_BYTES}
 * of the original), and only those that could have ended it where it ends ({@link dev.layerfold.dedup.codec.family.EncoderFamily#couldHaveWritten}),
 * one at a time in the order the member header's hints make likeliest, the next when the last was
 * dropped. Each is fed the decompressed bytes as they are inflated; its output is compared with the
 * original deflate bytes as they are read, and a candidate is dropped at its first differing byte,
 * within its first block. An encoder that reports its tokens
 * ({@link dev.layerfold.dedup.codec.deflate.DeflateEncoder#observeTokens}) is also checked token by
 * token against the first block's symbols ({@link FirstTokens}) and dropped at the first that
 * differs, usually within a few hundred tokens; any other costs about one block of compression.
 * Comparing stops once a single candidate is left
 * and has reproduced {@link #SETTLED_BYTES} of the original (and, while a candidate that may agree
 * with it for long waits, {@link EncoderFactory#inputToTellApart} of the input), or after {@code budgetBytes} of
 * decompressed input (several candidates still agreeing); the first live candidate is then taken,
 * and the full rebuild, which every layer passes before it is thinned, proves the rest. The split
 * thus costs a few blocks of compression, not a second compression of the layer. A member that
 * ends before that point is verified whole here.
 */
public final class EncoderIdentifier {

    /** Decompressed bytes compared per member at most, by default. */
    public static final long DEFAULT_BUDGET = 8L << 20;
    /** Original deflate bytes the last candidate left must reproduce before it is taken. */
    public static final long SETTLED_BYTES = 64L << 10;

    private final List<EncoderSpec> candidates;
    private final EncoderFactory factory;
    private final long budgetBytes;

    public EncoderIdentifier(List<EncoderSpec> candidates, EncoderFactory factory, long budgetBytes) {
        if (budgetBytes <= 0) {
            throw new IllegalArgumentException("identification budget must be positive");
        }
        this.candidates = List.copyOf(candidates);
        this.factory = factory;
        this.budgetBytes = budgetBytes;
    }

    /** The candidates in the order tried for a member with this header. */
    public List<EncoderSpec> order(GzipHeader header) {
        return candidates.stream().sorted(Comparator.comparingInt((EncoderSpec spec) -> ProducerHints.score(factory, spec, header)).reversed()).toList();
    }

    /** Starts identifying one member: feed it the member's bytes, then call {@link Session#finish()}. */
    public Session start(GzipHeader header) {
        return new Session(order(header), null, header);
    }

    /** Identifies the members of one layer, in order. */
    public Members members() {
        return new Members();
    }

    /**
     * The members of one layer. A producer writing several members (eStargz writes one per file)
     * writes them all alike: the previous member's encoder runs first. A producer whose
     * members end in a sync flush before the final block (eStargz's framing: layers made by
     * concatenating gzip files do not end so) and whose headers are the same is taken at its word:
     * once the members it wrote in a row hold {@link #SETTLED_BYTES} that its encoder reproduced
     * whole, that encoder is taken for the next member with the same header without running (its
     * ending, flushed or not, read from the member), as a member's own encoder is taken after that
     * many bytes. The rebuild proves it, as it proves the rest of a long member. Not thread-safe.
     */
    public final class Members {

        private EncoderSpec previous;
        private byte[] previousHeader;
        private long proven;
        private boolean previousFlushed;

        private Members() {
        }

        /** Starts identifying the next member. */
        public Session start(GzipHeader header) {
            if (previous == null) {
                return new Session(order(header), this, header);
            }
            if (proven >= SETTLED_BYTES && previousFlushed && Arrays.equals(header.bytes(), previousHeader)) {
                return new Session(previous, this, header);
            }
            List<EncoderSpec> ordered = new ArrayList<>(order(header));
            ordered.remove(previous);
            ordered.addFirst(previous);
            return new Session(ordered, this, header);
        }

        private void identified(GzipHeader header, Identification identification) {
            EncoderSpec candidate = candidateOf(identification.encoder());
            boolean flushed = candidate != null && !candidate.equals(identification.encoder());
            if (candidate == null || !candidate.equals(previous)) {
                proven = 0;
            }
            previous = candidate;
            previousHeader = header.bytes();
            proven += identification.wholeStream() ? identification.comparedBytes() : 0;
            previousFlushed = flushed;
        }
    }

    /** The candidate that is {@code spec}, or whose flushed variant it is; null if none. */
    private EncoderSpec candidateOf(EncoderSpec spec) {
        return candidates.stream()
                .filter(candidate -> candidate.equals(spec) || factory.flushedBeforeFinish(candidate).filter(spec::equals).isPresent())
                .findFirst().orElse(null);
    }

    /**
     * Identification of one member, fed as the member is read. Nothing runs until the original's
     * first block is decoded (or {@code budgetBytes} were fed without that): the decompressed bytes
     * fed so far are kept meanwhile (up to the budget), and the candidates that could have written
     * that block start, one at a time, from the member's beginning. Not thread-safe.
     */
    public final class Session implements DeflateMember.Listener {

        private final OriginalWindow original = new OriginalWindow();
        private final List<CandidateRun> runs = new ArrayList<>();
        private final List<EncoderSpec> waiting;
        private final ByteArrayOutputStream replay = new ByteArrayOutputStream();
        private final FirstBlock.Reader firstBlock = new FirstBlock.Reader();
        private final StreamEnding ending = new StreamEnding();
        /** The layer's members this one belongs to, told the outcome; null for a member alone. */
        private final Members members;
        private final GzipHeader header;
        private boolean started;
        private int[] firstTokens;
        private int tried;
        private long fed;
        private EncoderSpec chosenEarly;

        private Session(List<EncoderSpec> ordered, Members members, GzipHeader header) {
            this.waiting = new ArrayList<>(ordered);
            this.members = members;
            this.header = header;
        }

        /** A session that compares nothing and takes {@code assumed}. */
        private Session(EncoderSpec assumed, Members members, GzipHeader header) {
            this.waiting = new ArrayList<>();
            this.chosenEarly = assumed;
            this.members = members;
            this.header = header;
        }

        @Override
        public void deflated(byte[] data, int offset, int length) {
            ending.append(data, offset, length);
            if (deciding()) {
                original.append(data, offset, length);
                firstBlock.append(data, offset, length);
                runs.forEach(CandidateRun::originalGrew);
                if (!started && firstBlock.decided()) {
                    startFirst();
                }
                dropRejected();
            }
        }

        @Override
        public void inflated(byte[] data, int offset, int length) {
            if (!deciding()) {
                return;
            }
            if (!waiting.isEmpty()) {
                replay.write(data, offset, length);
            }
            for (CandidateRun run : runs) {
                run.feed(data, offset, length);
            }
            fed += length;
            if (!started && fed >= budgetBytes) {
                startFirst();
            }
            dropRejected();
            boolean settled = runs.size() == 1 && runs.getFirst().matched() >= SETTLED_BYTES
                    && fed >= factory.inputToTellApart(runs.getFirst().spec(), waiting);
            if ((settled || fed >= budgetBytes) && !runs.isEmpty()) {
                chosenEarly = runs.getFirst().spec();
                runs.clear();
                waiting.clear();
            }
        }

        /** The member's deflate stream ended: finish the live candidates and pick the first exact one. */
        public Identification finish() {
            Identification identification = decide();
            if (members != null) {
                members.identified(header, identification);
            }
            return identification;
        }

        private Identification decide() {
            if (chosenEarly != null) {
                return new Identification(flushedIfEndingSays(closedAsEndingSays(chosenEarly)), false, fed, tried);
            }
            if (!started) {
                startFirst();
            }
            while (true) {
                for (CandidateRun run : runs) {
                    EncoderSpec spec = flushedIfEndingSays(run.spec());
                    run.finish(!spec.equals(run.spec()));
                    if (run.caughtUp()) {
                        return new Identification(spec, true, fed, tried);
                    }
                }
                runs.clear();
                if (waiting.isEmpty()) {
                    return new Identification(EncoderSpec.NONE, true, fed, tried);
                }
                startNext();
            }
        }

        /**
         * The twin of {@code spec} that closes its stream with a fixed-Huffman block, if the member ends so and
         * there is one: a candidate taken early has not seen the end, where alone such twins differ.
         */
        private EncoderSpec closedAsEndingSays(EncoderSpec spec) {
            return ending.closedWithFixedBlock() ? factory.closedWithFixedBlock(spec).orElse(spec) : spec;
        }

        /** The flushed variant of {@code spec} if the member ends as a flushed stream does and there is one. */
        private EncoderSpec flushedIfEndingSays(EncoderSpec spec) {
            return ending.flushed() ? factory.flushedBeforeFinish(spec).orElse(spec) : spec;
        }

        private boolean deciding() {
            return chosenEarly == null && (!runs.isEmpty() || !waiting.isEmpty());
        }

        private void dropRejected() {
            runs.removeIf(run -> !run.alive());
            if (runs.isEmpty() && !waiting.isEmpty()) {
                if (started) {
                    startNext();
                }
                return;
            }
            if (waiting.isEmpty()) {
                original.discardBefore(runs.stream().mapToLong(CandidateRun::matched).min().orElse(original.end()));
            }
        }

        /** Keeps only the candidates that could have written the first block (all if it is not known), then starts. */
        private void startFirst() {
            started = true;
            Optional<FirstBlock> first = firstBlock.finish();
            first.ifPresent(block -> waiting.removeIf(spec -> !factory.couldHaveWritten(spec, block)));
            firstTokens = first.filter(block -> block.type() != FirstBlock.STORED).map(FirstBlock::tokens).orElse(null);
            startNext();
        }

        /**
         * No candidate runs: starts the next waiting one. One at a time, in order: a wrong candidate
         * whose tokens are checked costs a few hundred tokens, any other about a block, and a right
         * one (usually the first) leaves the rest unmade.
         */
        private void startNext() {
            if (waiting.isEmpty()) {
                return;
            }
            start(waiting.removeFirst());
            replayTo(runs);
            dropRejected();
        }

        private void replayTo(List<CandidateRun> started) {
            byte[] seen = replay.toByteArray();
            if (waiting.isEmpty()) {
                replay.reset();
            }
            for (CandidateRun run : started) {
                run.feed(seen, 0, seen.length);
            }
        }

        private void start(EncoderSpec spec) {
            CandidateRun run = new CandidateRun(spec, factory, original);
            if (firstTokens != null) {
                run.checkTokens(firstTokens);
            }
            runs.add(run);
            tried++;
        }
    }
}
