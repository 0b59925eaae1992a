package dev.layerfold.dedup.codec.identify;

import dev.layerfold.dedup.codec.container.DeflateMember;
import dev.layerfold.dedup.codec.container.GzipHeader;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Finds the encoder and settings that reproduce a gzip member, in the same pass that splits it.
 *
 * <p>Candidates start once the original's first block is decoded (at most {@link FirstBlock#MAX_BYTES}
 * of the original), and only those that could have ended it where it ends ({@link FirstBlockRules}),
 * in the order the member header's hints make likeliest. Each is fed the decompressed bytes as they
 * are inflated; its output is compared with the original deflate bytes as they are read, and a
 * candidate is dropped at its first differing byte, within its first block. An encoder that reports
 * its tokens ({@link dev.layerfold.dedup.codec.deflate.DeflateEncoder#observeTokens}) is also
 * checked token by token against the first block's symbols ({@link FirstTokens}) and dropped at the
 * first that differs, usually within a few hundred tokens: all those start together. Of the others
 * the likeliest runs alone, and the rest only if it is rejected, each costing about one block of
 * compression. Comparing stops once a single candidate is left
 * and has reproduced {@link #SETTLED_BYTES} of the original, or after {@code budgetBytes} of
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
        return candidates.stream().sorted(Comparator.comparingInt((EncoderSpec spec) -> ProducerHints.score(spec, header)).reversed()).toList();
    }

    /** Starts identifying one member: feed it the member's bytes, then call {@link Session#finish()}. */
    public Session start(GzipHeader header) {
        return new Session(order(header));
    }

    /**
     * Identification of one member, fed as the member is read. Nothing runs until the original's
     * first block is decoded (or {@code budgetBytes} were fed without that): the decompressed bytes
     * fed so far are kept meanwhile (up to the budget), and the candidates that could have written
     * that block start from the member's beginning. Those that report their tokens start together,
     * each stopped at its first token that differs from the block's; of the others the likeliest
     * starts alone, and the rest only if every run was rejected. Not thread-safe.
     */
    public final class Session implements DeflateMember.Listener {

        private final OriginalWindow original = new OriginalWindow();
        private final List<CandidateRun> runs = new ArrayList<>();
        private final List<EncoderSpec> waiting;
        private final ByteArrayOutputStream replay = new ByteArrayOutputStream();
        private final FirstBlock.Reader firstBlock = new FirstBlock.Reader();
        private boolean started;
        private int[] firstTokens;
        private int tried;
        private long fed;
        private EncoderSpec chosenEarly;

        private Session(List<EncoderSpec> ordered) {
            this.waiting = new ArrayList<>(ordered);
        }

        @Override
        public void deflated(byte[] data, int offset, int length) {
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
            boolean settled = runs.size() == 1 && runs.getFirst().matched() >= SETTLED_BYTES;
            if ((settled || fed >= budgetBytes) && !runs.isEmpty()) {
                chosenEarly = runs.getFirst().spec();
                runs.clear();
                waiting.clear();
            }
        }

        /** The member's deflate stream ended: finish the live candidates and pick the first exact one. */
        public Identification finish() {
            if (chosenEarly != null) {
                return new Identification(chosenEarly, false, fed, tried);
            }
            if (!started) {
                startFirst();
            }
            while (true) {
                for (CandidateRun run : runs) {
                    run.finish();
                    if (run.caughtUp()) {
                        return new Identification(run.spec(), true, fed, tried);
                    }
                }
                runs.clear();
                if (waiting.isEmpty()) {
                    return new Identification(EncoderSpec.NONE, true, fed, tried);
                }
                startRest();
            }
        }

        private boolean deciding() {
            return chosenEarly == null && (!runs.isEmpty() || !waiting.isEmpty());
        }

        private void dropRejected() {
            runs.removeIf(run -> !run.alive());
            if (runs.isEmpty() && !waiting.isEmpty()) {
                if (started) {
                    startRest();
                }
                return;
            }
            if (waiting.isEmpty()) {
                original.discardBefore(runs.stream().mapToLong(CandidateRun::matched).min().orElse(original.end()));
            }
        }

        /**
         * Starts the candidates that could have written the first block as decoded so far (all of
         * them if it is not known): those whose tokens can be checked against it, and the likeliest
         * of the others.
         */
        private void startFirst() {
            started = true;
            Optional<FirstBlock> first = firstBlock.finish();
            List<EncoderSpec> possible = first.map(block -> waiting.stream()
                    .filter(spec -> FirstBlockRules.couldHaveWritten(spec, block)).toList()).orElse(List.copyOf(waiting));
            firstTokens = first.filter(block -> block.type() != FirstBlock.STORED).map(FirstBlock::tokens).orElse(null);
            waiting.clear();
            List<EncoderSpec> byOutput = new ArrayList<>();
            for (EncoderSpec spec : possible) {
                if (firstTokens != null && factory.reportsTokens(spec)) {
                    start(spec);
                } else {
                    byOutput.add(spec);
                }
            }
            if (!byOutput.isEmpty()) {
                start(byOutput.removeFirst());
            }
            waiting.addAll(byOutput);
            replayTo(runs);
        }

        /** Every run was rejected: the candidates still waiting all start. */
        private void startRest() {
            List<EncoderSpec> rest = List.copyOf(waiting);
            waiting.clear();
            rest.forEach(this::start);
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
