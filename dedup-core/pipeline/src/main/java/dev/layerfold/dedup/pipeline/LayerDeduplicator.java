package dev.layerfold.dedup.pipeline;

import dev.layerfold.dedup.codec.recipe.FileRef;
import dev.layerfold.dedup.codec.recipe.LayerFormat;
import dev.layerfold.dedup.codec.io.LayerFormatException;
import dev.layerfold.dedup.codec.io.LayerRebuildException;
import dev.layerfold.dedup.codec.LayerRebuilder;
import dev.layerfold.dedup.codec.LayerSplitter;
import dev.layerfold.dedup.codec.SplitResult;
import dev.layerfold.dedup.codec.recipe.Recipe;
import dev.layerfold.dedup.store.ContentAddressedWriter;
import dev.layerfold.dedup.store.LayerRecord;
import dev.layerfold.dedup.store.PackSpool;
import dev.layerfold.dedup.store.StoredFiles;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.dedup.DedupIndex;
import dev.layerfold.storage.dedup.FileClaim;
import dev.layerfold.storage.dedup.FileLocation;
import dev.layerfold.storage.dedup.LayerState;
import dev.layerfold.storage.dedup.LayerTask;
import dev.layerfold.storage.dedup.PackCondemnedException;
import dev.layerfold.storage.gc.GcIndex;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deduplicates one layer: splits it with the codec, stores the files the registry lacks (each claimed
 * first, so two workers never store one file twice) in packs, writes its {@link LayerRecord}, rebuilds
 * the layer from what was stored and compares the digest, and only after that proof commits the layer
 * (counting its file references) and removes the intact blob. Every step is idempotent: a worker that
 * dies anywhere leaves the layer intact and servable, and the task is done again. A layer the garbage
 * collector deletes while it is split is not committed (the GC index fences the commit: see
 * {@link #stillWanted}), so its files are not kept for a layer no manifest names.
 */
public final class LayerDeduplicator {

    private static final Logger LOG = LoggerFactory.getLogger(LayerDeduplicator.class);

    /** Layer media types the codec splits: gzip'd, zstd'd and plain tar, OCI and Docker. */
    private static final Set<String> SPLITTABLE = Set.of(
            "application/vnd.oci.image.layer.v1.tar+gzip",
            "application/vnd.oci.image.layer.v1.tar+zstd",
            "application/vnd.oci.image.layer.v1.tar",
            "application/vnd.docker.image.rootfs.diff.tar.gzip",
            "application/vnd.docker.image.rootfs.diff.tar.zstd",
            "application/vnd.docker.image.rootfs.diff.tar");
    /** Why a zstd layer no known encoder reproduces stays intact, counted apart from gzip ones. */
    static final String ZSTD_NOT_REPRODUCIBLE = "zstd not reproducible";
    private static final long BUSY_FILE_POLL_MILLIS = 200;

    private final BlobStore blobs;
    private final DedupIndex index;
    private final GcIndex gc;
    private final LayerSplitter splitter;
    private final LayerRebuilder rebuilder;
    private final DedupSettings settings;
    private final ContentAddressedWriter writer;
    private final StoredFiles storedFiles;
    private final IntactCopyPolicy copies;
    private final RebuildMemory memory;

    /**
     * @param copies whether a layer keeps its intact blob once deduplicated (mode {@code selective}: while hot)
     * @param memory the heap rebuilds may hold at once: the proof reserves from it as restores do, so it
     *               waits while clients' restores hold it
     */
    public LayerDeduplicator(BlobStore blobs, DedupIndex index, GcIndex gc, LayerSplitter splitter, LayerRebuilder rebuilder,
                             DedupSettings settings, IntactCopyPolicy copies, RebuildMemory memory) {
        this.memory = memory;
        this.blobs = blobs;
        this.copies = copies;
        this.index = index;
        this.gc = gc;
        this.splitter = splitter;
        this.rebuilder = rebuilder;
        this.settings = settings;
        this.writer = new ContentAddressedWriter(blobs);
        this.storedFiles = new StoredFiles(blobs);
    }

    /** A deduplicator whose proofs share a budget of 1 GiB: for tests and tools that bound nothing else. */
    public LayerDeduplicator(BlobStore blobs, DedupIndex index, GcIndex gc, LayerSplitter splitter, LayerRebuilder rebuilder,
                             DedupSettings settings, IntactCopyPolicy copies) {
        this(blobs, index, gc, splitter, rebuilder, settings, copies, RebuildMemory.of(1L << 30));
    }

    /** @param worker who claims the layer's new files (unique per worker thread across the cluster) */
    public DedupOutcome deduplicate(LayerTask task, String worker) throws IOException {
        return deduplicate(task, worker, YieldToClients.NEVER);
    }

    /**
     * @param yielding paused between pieces of the layer (split, packs, proof) while clients are served;
     *                 the proof goes on while a client's restore waits for the memory it holds
     */
    public DedupOutcome deduplicate(LayerTask task, String worker, YieldToClients yielding) throws IOException {
        Digest layer = task.layer();
        Optional<LayerState> state = index.layer(layer);
        if (state.isPresent()) {
            if (state.get() instanceof LayerState.Deduplicated && !copies.keepsIntactWhenDeduplicated(layer)) {
                // The same layer pushed again after it was thinned is intact once more; its record was proven.
                blobs.delete(layer);
            }
            return DedupOutcome.alreadyDone();
        }
        if (!SPLITTABLE.contains(task.mediaType())) {
            return keepIntact(layer, "not a tar layer", "media type " + task.mediaType() + " is not a tar layer");
        }
        Optional<InputStream> blob = blobs.open(layer, 0, -1);
        if (blob.isEmpty()) {
            return DedupOutcome.alreadyDone();
        }
        try (InputStream in = yielding.pacing(blob.get()); PackSpool spool = new PackSpool(settings.scratch(), settings.zstdLevel());
             PackingSink sink = new PackingSink(index, spool, settings.scratch(), settings.limits(), task.size())) {
            SplitResult split;
            try {
                split = layer.algorithm() == Digest.Algorithm.SHA256 ? splitter.split(in, layer.hex(), sink) : splitter.split(in, sink);
            } catch (LayerTooCostlyException e) {
                return keepIntact(layer, "too costly", e.getMessage());
            } catch (LayerFormatException e) {
                return keepIntact(layer, "damaged", e.getMessage());
            }
            Recipe recipe = split.recipe();
            if (task.mediaType().endsWith("gzip") && recipe.format() != LayerFormat.GZIP) {
                return keepIntact(layer, "damaged", "its media type says gzip, but it is not gzip");
            }
            if (task.mediaType().endsWith("zstd") && recipe.format() != LayerFormat.ZSTD) {
                return keepIntact(layer, "damaged", "its media type says zstd, but it is not zstd");
            }
            if (split.tarDamage().isPresent()) {
                return keepIntact(layer, "damaged", "a broken tar archive: " + split.tarDamage().get());
            }
            if (!recipe.reproducible()) {
                return keepIntact(layer, recipe.format() == LayerFormat.ZSTD ? ZSTD_NOT_REPRODUCIBLE : "not reproducible",
                        split.unmatchedReason().orElse("no known encoder reproduces it") + "; " + split.identifications());
            }
            sink.finish();
            Map<Digest, FileLocation> locations = new HashMap<>(sink.alreadyStored());
            long packBytes;
            try {
                packBytes = storeNewFiles(spool, worker, locations, yielding);
            } catch (PackCondemnedException e) {
                return DedupOutcome.retry(e.getMessage());
            }
            if (packBytes < 0) {
                return DedupOutcome.retry("files of this layer are being stored by another worker");
            }
            Map<Digest, FileLocation> fileLocations = locationsOf(recipe, locations);
            LayerRecord record;
            try {
                yielding.pause();
                record = new LayerRecord(prove(layer, new LayerRecord(recipe, fileLocations), yielding), fileLocations);
            } catch (LayerRebuildException e) {
                LOG.error("layer {} did not rebuild from what was stored; it stays intact: {}", layer, e.getMessage());
                return keepIntact(layer, "rebuild mismatch", e.getMessage());
            }
            Optional<DedupOutcome> unwanted = stillWanted(layer, record, sink.alreadyStored().keySet());
            if (unwanted.isPresent()) {
                return unwanted.get();
            }
            byte[] recordBytes = record.toBytes();
            Digest recordDigest = writer.write(recordBytes);
            long stored = packBytes + recordBytes.length;
            var deduplicated = new LayerState.Deduplicated(recordDigest, recipe.blobSize(), recordBytes.length);
            if (!index.commitLayer(layer, deduplicated, record.files().keySet())) {
                return DedupOutcome.retry("a file of this layer was reclaimed while it was being deduplicated");
            }
            if (!copies.keepsIntactWhenDeduplicated(layer)) {
                blobs.delete(layer);
            }
            return new DedupOutcome(DedupOutcome.Kind.DEDUPLICATED, "", recipe.blobSize(), stored);
        }
    }

    /**
     * Fences the commit against the garbage collector, which may have condemned the layer while it was
     * split (no manifest names it any more) and, seeing no deduplicated state yet, deleted its blob
     * alone. A touch makes the layer a candidate from now, so no condemnation follows within the grace
     * period (the commit comes milliseconds later), and it is refused while one stands. After it, a
     * blob that is gone with no state recorded was deleted: committing would keep the layer's files for
     * nothing, and nothing would ever release them. Either way the files this layer alone stored are
     * forgotten (those stored before it, or by others, are referenced or kept by their own commit).
     * Empty if the layer may be committed.
     */
    private Optional<DedupOutcome> stillWanted(Digest layer, LayerRecord record, Set<Digest> storedBefore) throws IOException {
        boolean condemned = !gc.touch(layer);
        if (!condemned && (blobs.size(layer).isPresent() || index.layer(layer).isPresent())) {
            return Optional.empty();
        }
        Set<Digest> ownFiles = new HashSet<>(record.files().keySet());
        ownFiles.removeAll(storedBefore);
        index.forgetUnreferenced(ownFiles, Long.MAX_VALUE);
        LOG.info("layer {} was deleted while it was deduplicated; its files are not kept", layer);
        return Optional.of(condemned ? DedupOutcome.retry("the garbage collector is deleting the layer") : DedupOutcome.alreadyDone());
    }

    /**
     * The proof: rebuilds the layer from what was stored and checks its digest, encoding the members
     * and the frames whose encoder has restart points in pieces from rebuilt states, so that the same
     * pass verifies their points (the recipe returned has them), or layers of many members or frames
     * in units. If that fails, a piece or a file may be at fault:
     * the layer is rebuilt once more in one piece, and if that matches it is kept without points.
     */
    private Recipe prove(Digest layer, LayerRecord record, YieldToClients yielding) throws IOException {
        Recipe recipe = record.recipe();
        try (RebuildMemory.Reservation reserved = memory.reserve(LayerRebuilder.proofHeapBound(recipe), layer)) {
            return proveWithin(layer, recipe, record, yielding.unless(() -> memory.waiting() > 0));
        }
    }

    private Recipe proveWithin(Digest layer, Recipe recipe, LayerRecord record, YieldToClients yielding) throws IOException {
        try {
            return rebuilder.rebuildFindingRestartPoints(recipe, storedFiles.forProof(record), yielding.pacing(OutputStream.nullOutputStream()));
        } catch (LayerRebuildException e) {
            if (!LayerRebuilder.findsRestartPoints(recipe)) {
                throw e;
            }
            LOG.warn("layer {} did not rebuild in pieces from restart points ({}); proving it in one piece", layer, e.getMessage());
            rebuilder.rebuild(recipe, storedFiles.forProof(record), OutputStream.nullOutputStream());
            return recipe;
        }
    }

    /**
     * Claims the spooled files, publishes the claimed ones as packs and waits for those another worker
     * is storing; adds every location to {@code locations}. Returns the bytes of packs written, or -1
     * if files claimed elsewhere were not stored in time (the other worker may have died: its claims
     * expire, and the retry stores them here).
     */
    private long storeNewFiles(PackSpool spool, String worker, Map<Digest, FileLocation> locations, YieldToClients yielding)
            throws IOException {
        Set<Digest> pending = new LinkedHashSet<>(spool.files());
        long packBytes = 0;
        long deadline = System.currentTimeMillis() + settings.claimTime().toMillis();
        while (!pending.isEmpty()) {
            yielding.pause();
            Set<Digest> mine = new HashSet<>();
            for (Map.Entry<Digest, FileClaim> claim : index.claimFiles(pending, worker, settings.claimTime()).entrySet()) {
                switch (claim.getValue().status()) {
                    case CLAIMED -> mine.add(claim.getKey());
                    case STORED -> {
                        locations.put(claim.getKey(), claim.getValue().location().orElseThrow());
                        pending.remove(claim.getKey());
                    }
                    case BUSY -> {
                    }
                }
            }
            for (PackSpool.Pack pack : spool.publish(mine, settings.packSize(), writer)) {
                index.packStored(pack.digest(), pack.size(), pack.files());
                locations.putAll(pack.files());
                packBytes += pack.size();
            }
            pending.removeAll(mine);
            if (!pending.isEmpty()) {
                if (System.currentTimeMillis() > deadline) {
                    return -1;
                }
                sleep(BUSY_FILE_POLL_MILLIS);
            }
        }
        return packBytes;
    }

    private static Map<Digest, FileLocation> locationsOf(Recipe recipe, Map<Digest, FileLocation> known) throws LayerRebuildException {
        Map<Digest, FileLocation> files = new HashMap<>();
        for (FileRef ref : LayerRecord.filesInOrder(recipe)) {
            Digest digest = Digest.parse("sha256:" + ref.sha256());
            FileLocation location = known.get(digest);
            if (location == null) {
                throw new LayerRebuildException("file " + ref.sha256() + " of layer " + recipe.blobSha256() + " was not stored");
            }
            files.put(digest, location);
        }
        return files;
    }

    private DedupOutcome keepIntact(Digest layer, String reason, String detail) throws IOException {
        LOG.info("layer {} stays intact ({}): {}", layer, reason, detail);
        index.keepIntact(layer, reason);
        return DedupOutcome.intact(reason);
    }

    private static void sleep(long millis) throws IOException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for files another worker stores");
        }
    }
}
