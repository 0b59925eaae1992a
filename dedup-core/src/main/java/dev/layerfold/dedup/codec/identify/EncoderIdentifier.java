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
 * <p>The candidate the member header's hints make likeliest runs first, alone; if it is rejected,
 * the others, in hint order, continue from the bytes kept so far, but only those that could have
 * ended the original's first block where it ends ({@link FirstBlockRules}): they wait until that
 * block is decoded (at most {@link FirstBlock#MAX_BYTES} of the original). Each is fed the decompressed
 * bytes as they are inflated; its output is compared with the original deflate bytes as they are
 * read, and a candidate is dropped at its first differing byte, within its first block. So a wrong
 * candidate costs about one block of compression. Comparing stops once a single candidate is left
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
     * Identification of one member, fed as the member is read. The likeliest candidate runs alone
     * first; the decompressed bytes fed so far are kept (up to the budget) so that, if it is
     * rejected, all the others start from the member's beginning in the same pass. Not thread-safe.
     */
    public final class Session implements DeflateMember.Listener {

        private final OriginalWindow original = new OriginalWindow();
        private final List<CandidateRun> runs = new ArrayList<>();
        private final List<EncoderSpec> waiting;
        private final ByteArrayOutputStream replay = new ByteArrayOutputStream();
        private final FirstBlock.Reader firstBlock = new FirstBlock.Reader();
        private int tried;
        private long fed;
        private EncoderSpec chosenEarly;

        private Session(List<EncoderSpec> ordered) {
            this.waiting = new ArrayList<>(ordered);
            if (!waiting.isEmpty()) {
                start(List.of(waiting.removeFirst()));
            }
        }

        @Override
        public void deflated(byte[] data, int offset, int length) {
            if (deciding()) {
                original.append(data, offset, length);
                boolean wasDecided = firstBlock.decided();
                firstBlock.append(data, offset, length);
                runs.forEach(CandidateRun::originalGrew);
                dropRejected();
                if (!wasDecided && firstBlock.decided() && runs.isEmpty() && !waiting.isEmpty()) {
                    startWaiting();
                }
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
                firstBlock.finish();
                startWaiting();
            }
        }

        private boolean deciding() {
            return chosenEarly == null && (!runs.isEmpty() || !waiting.isEmpty());
        }

        private void dropRejected() {
            runs.removeIf(run -> !run.alive());
            if (runs.isEmpty() && !waiting.isEmpty()) {
                if (firstBlock.decided()) {
                    startWaiting();
                }
                return;
            }
            if (waiting.isEmpty()) {
                original.discardBefore(runs.stream().mapToLong(CandidateRun::matched).min().orElse(original.end()));
            }
        }

        /**
         * Starts every waiting candidate that could have written the first block on the bytes seen so
         * far; the caller checks who survived.
         */
        private void startWaiting() {
            Optional<FirstBlock> first = firstBlock.finish();
            List<EncoderSpec> rest = first.map(block -> waiting.stream()
                    .filter(spec -> FirstBlockRules.couldHaveWritten(spec, block)).toList()).orElse(List.copyOf(waiting));
            waiting.clear();
            start(rest);
            byte[] seen = replay.toByteArray();
            replay.reset();
            for (CandidateRun run : runs) {
                run.feed(seen, 0, seen.length);
            }
            dropRejected();
        }

        private void start(List<EncoderSpec> specs) {
            for (EncoderSpec spec : specs) {
                runs.add(new CandidateRun(spec, factory, original));
            }
            tried += specs.size();
        }
    }
}
