package dev.layerfold.dedup.codec.identify;

import dev.layerfold.dedup.codec.container.GzipHeader;
import dev.layerfold.dedup.codec.deflate.DeflateEncoder;
import dev.layerfold.dedup.codec.deflate.golang.GoFamily;
import dev.layerfold.dedup.codec.deflate.klauspost.Go127Family;
import dev.layerfold.dedup.codec.deflate.klauspost.PgzipFamily;
import dev.layerfold.dedup.codec.deflate.pigz.PigzFamily;
import dev.layerfold.dedup.codec.deflate.zlib.GnuGzipFamily;
import dev.layerfold.dedup.codec.deflate.zlib.ZlibFamily;
import dev.layerfold.dedup.codec.family.EncoderFamily;
import dev.layerfold.dedup.codec.family.FamilySpec;
import dev.layerfold.dedup.codec.family.FirstBlock;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;
import dev.layerfold.dedup.codec.restart.RestartSupport;

import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The registry of DEFLATE encoder families: every question about a spec goes to the family it
 * names. {@link #standard()} holds the families real layer producers use; {@link #with} adds others
 * (a test's, a new producer's) without touching the codec elsewhere.
 */
public final class EncoderFamilies implements EncoderFactory {

    private static final EncoderFamilies STANDARD = new EncoderFamilies(List.of(
            new GoFamily(), new Go127Family(), new ZlibFamily(), new PigzFamily(), new GnuGzipFamily(), new PgzipFamily()));

    private final Map<String, EncoderFamily> families = new LinkedHashMap<>();
    private final List<EncoderSpec> candidates;

    private EncoderFamilies(List<EncoderFamily> families) {
        for (EncoderFamily family : families) {
            if (this.families.putIfAbsent(family.name(), family) != null) {
                throw new IllegalArgumentException("two encoder families named " + family.name());
            }
        }
        List<EncoderFamily.Candidate> ranked = new ArrayList<>();
        families.forEach(family -> ranked.addAll(family.candidates()));
        ranked.sort(Comparator.comparingInt(EncoderFamily.Candidate::rank));
        this.candidates = ranked.stream().map(EncoderFamily.Candidate::spec).toList();
    }

    /** Go 1.8-1.26, Go 1.27, zlib, pigz, GNU gzip and pgzip. */
    public static EncoderFamilies standard() {
        return STANDARD;
    }

    /** These families and {@code extra}, whose names must be new. */
    public EncoderFamilies with(EncoderFamily... extra) {
        List<EncoderFamily> all = new ArrayList<>(families.values());
        all.addAll(List.of(extra));
        return new EncoderFamilies(all);
    }

    /** Every family's candidates, by rank (stable: a family's own order breaks ties). */
    public List<EncoderSpec> candidates() {
        return candidates;
    }

    /** An identifier trying {@link #candidates()} with these families' encoders. */
    public EncoderIdentifier identifier() {
        return new EncoderIdentifier(candidates, this, EncoderIdentifier.DEFAULT_BUDGET);
    }

    /** The family {@code spec} names, if it is one of these. */
    public Optional<EncoderFamily> family(EncoderSpec spec) {
        return Optional.ofNullable(families.get(spec.family()));
    }

    /**
     * {@code spec} read by its family ({@link EncoderFamily#decode}).
     *
     * @throws IllegalArgumentException for a family not among these or parameters not its own
     */
    public FamilySpec decode(EncoderSpec spec) {
        return family(spec).orElseThrow(() -> new IllegalArgumentException("unknown encoder family " + spec.family() + " in " + spec))
                .decode(spec);
    }

    @Override
    public DeflateEncoder create(EncoderSpec spec, OutputStream sink) {
        return family(spec).orElseThrow(() -> new IllegalArgumentException("unknown encoder family " + spec.family() + " in " + spec))
                .encoder(spec, sink);
    }

    @Override
    public boolean couldHaveWritten(EncoderSpec spec, FirstBlock first) {
        return !first.endedByEncoder() || family(spec).map(family -> family.couldHaveWritten(spec, first)).orElse(true);
    }

    @Override
    public int osScore(EncoderSpec spec, GzipHeader header) {
        return family(spec).map(family -> family.osScore(spec, header.os())).orElse(0);
    }

    @Override
    public Optional<EncoderSpec> flushedBeforeFinish(EncoderSpec spec) {
        return family(spec).flatMap(family -> family.flushedBeforeFinish(spec));
    }

    @Override
    public Optional<EncoderSpec> closedWithFixedBlock(EncoderSpec spec) {
        return family(spec).flatMap(family -> family.closedWithFixedBlock(spec));
    }

    @Override
    public long inputToTellApart(EncoderSpec running, List<EncoderSpec> waiting) {
        return family(running).map(family -> family.inputToTellApart(running, waiting)).orElse(0L);
    }

    /** The restart points {@code spec}'s family offers for it; empty for a family not among these. */
    public Optional<RestartSupport> restart(EncoderSpec spec) {
        return family(spec).flatMap(family -> family.restart(spec));
    }
}
