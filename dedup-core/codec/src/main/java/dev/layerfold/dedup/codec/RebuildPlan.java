package dev.layerfold.dedup.codec;

import dev.layerfold.dedup.codec.io.LayerRebuildException;
import dev.layerfold.dedup.codec.recipe.FileRef;
import dev.layerfold.dedup.codec.recipe.Recipe;
import dev.layerfold.dedup.codec.recipe.SkeletonOp;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * One rebuild of a layer, as {@link LayerRebuilder#plan} chose it: where its output starts in the
 * blob, the file bodies it reads, the heap it holds, and the rebuild itself. A caller reserves
 * {@link #heapBound()}, hands {@link #files()} to its prefetcher, and skips from {@link #startOffset()}
 * to the byte it wants. Immutable; {@link #run} may be called more than once.
 */
public final class RebuildPlan {

    private final LayerRebuilder rebuilder;
    private final Recipe recipe;
    /** Null: the whole layer, from byte 0, checked against its sha256. */
    private final LayerRebuilder.Resume resume;

    RebuildPlan(LayerRebuilder rebuilder, Recipe recipe, LayerRebuilder.Resume resume) {
        this.rebuilder = rebuilder;
        this.recipe = recipe;
        this.resume = resume;
    }

    /**
     * Where in the blob the output of {@link #run} starts: 0 for the whole layer, else a restart or
     * unit point at or before the offset asked for.
     */
    public long startOffset() {
        return resume == null ? 0 : resume.blobOffset();
    }

    /** The file bodies {@link #run} reads, in the order it reads them. */
    public List<FileRef> files() {
        if (resume != null) {
            return LayerRebuilder.filesFrom(recipe, resume);
        }
        List<FileRef> refs = new ArrayList<>(recipe.skeleton().fileCount());
        for (Iterator<SkeletonOp> ops = recipe.skeleton().ops(); ops.hasNext(); ) {
            if (ops.next() instanceof SkeletonOp.File file) {
                refs.add(file.ref());
            }
        }
        return refs;
    }

    /**
     * The most heap {@link #run} holds at once, besides the file bodies its source hands it: its
     * buffers, its encoders' state and the segments it may have under way. What a caller reserves
     * before it starts.
     */
    public long heapBound() {
        return rebuilder.heapBound(recipe);
    }

    /**
     * This plan's layer whole, encoded in one piece on the caller's thread: for a caller whose budget
     * the segments of {@link #heapBound()} would not fit (each holds a window and an encoder of its own).
     */
    public RebuildPlan inOnePiece() {
        return new RebuildPlan(rebuilder.inOnePiece(), recipe, null);
    }

    /**
     * Writes the blob from {@link #startOffset()} to its end to {@code out} (not closed). The whole
     * layer is checked against its sha256 and size; from a point, each segment or unit against its
     * point's digest before it is written, and the count of bytes against the blob's size. Until
     * this returns normally, the output must not be trusted.
     *
     * @throws LayerRebuildException if the bytes differ, the recipe names no encoder for some part,
     *                               or a body is missing or has the wrong size
     */
    public void run(FileContentSource files, OutputStream out) throws IOException {
        if (resume == null) {
            rebuilder.rebuild(recipe, files, out);
        } else {
            rebuilder.rebuildFrom(recipe, files, resume, out);
        }
    }
}
