package dev.layerfold.dedup.codec.identify;

import dev.layerfold.dedup.codec.container.DeflateMember;
import dev.layerfold.dedup.codec.container.GzipHeader;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Finds the encoder and settings that reproduce a gzip member, in the same pass that splits it.
 *
 * <p>Every candidate, in the order the member header's hints suggest, is fed the decompressed
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

    /** Identification of one member, fed as the member is read. Not thread-safe. */
    public final class Session implements DeflateMember.Listener {

        private final OriginalWindow original = new OriginalWindow();
        private final List<CandidateRun> runs = new ArrayList<>();
        private final int tried;
        private long fed;
        private EncoderSpec chosenEarly;

        private Session(List<EncoderSpec> ordered) {
            for (EncoderSpec spec : ordered) {
                runs.add(new CandidateRun(spec, factory, original));
            }
            this.tried = ordered.size();
        }

        @Override
        public void deflated(byte[] data, int offset, int length) {
            if (deciding()) {
                original.append(data, offset, length);
                runs.forEach(CandidateRun::originalGrew);
                dropRejected();
            }
        }

        @Override
        public void inflated(byte[] data, int offset, int length) {
            if (!deciding()) {
                return;
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
            }
        }

        /** The member's deflate stream ended: finish the live candidates and pick the first exact one. */
        public Identification finish() {
            if (chosenEarly != null) {
                return new Identification(chosenEarly, false, fed, tried);
            }
            for (CandidateRun run : runs) {
                run.finish();
                if (run.caughtUp()) {
                    return new Identification(run.spec(), true, fed, tried);
                }
            }
            return new Identification(EncoderSpec.NONE, true, fed, tried);
        }

        private boolean deciding() {
            return chosenEarly == null && !runs.isEmpty();
        }

        private void dropRejected() {
            runs.removeIf(run -> !run.alive());
            original.discardBefore(runs.stream().mapToLong(CandidateRun::matched).min().orElse(original.end()));
        }
    }
}
