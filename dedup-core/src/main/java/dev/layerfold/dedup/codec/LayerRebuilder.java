package dev.layerfold.dedup.codec;

import dev.layerfold.dedup.codec.identify.EncoderFactory;
import dev.layerfold.dedup.codec.recipe.Recipe;
import dev.layerfold.dedup.codec.recipe.SkeletonOp;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Iterator;

/**
 * Rebuilds a layer blob from its recipe and its file bodies, streaming: the tar skeleton's ops,
 * bodies fetched in recipe order, through the recorded encoders and gzip framing. The sha256 and
 * size of the written bytes are checked against the recipe at the end; until
 * {@link #rebuild} returns normally, the output must not be trusted. Thread-safe.
 */
public final class LayerRebuilder {

    private static final int BUFFER = 64 * 1024;
    private static final byte[] ZEROS = new byte[512];

    private final EncoderFactory encoders;

    public LayerRebuilder(EncoderFactory encoders) {
        this.encoders = encoders;
    }

    /**
     * Writes the blob to {@code out} (not closed).
     *
     * @throws LayerRebuildException if the recipe names no encoder for some member, a body is
     *                               missing or has the wrong size, or the result differs from the
     *                               original blob
     */
    public void rebuild(Recipe recipe, FileContentSource files, OutputStream out) throws IOException {
        for (int i = 0; i < recipe.members().size(); i++) {
            if (recipe.members().get(i).encoder().isNone()) {
                throw new LayerRebuildException("layer " + recipe.blobSha256() + " cannot be rebuilt: no known encoder reproduces its gzip member " + i);
            }
        }
        VerifyingOutput verified = new VerifyingOutput(out);
        OutputStream blob = new BufferedOutputStream(verified, BUFFER);
        GzipFramer framer = recipe.format() == LayerFormat.GZIP ? new GzipFramer(recipe.members(), encoders, blob) : null;
        OutputStream tar = framer != null ? framer : blob;
        writeTar(recipe, files, tar);
        if (framer != null) {
            framer.finish();
            blob.write(recipe.trailingBytes());
        }
        blob.flush();
        if (verified.size() != recipe.blobSize() || !verified.sha256Hex().equals(recipe.blobSha256())) {
            throw new LayerRebuildException("rebuilt layer differs from the original: got " + verified.size() + " bytes with sha256 "
                    + verified.sha256Hex() + ", expected " + recipe.blobSize() + " bytes with sha256 " + recipe.blobSha256());
        }
    }

    private static void writeTar(Recipe recipe, FileContentSource files, OutputStream tar) throws IOException {
        byte[] buffer = new byte[BUFFER];
        try {
            for (Iterator<SkeletonOp> ops = recipe.skeleton().ops(); ops.hasNext(); ) {
                switch (ops.next()) {
                    case SkeletonOp.Inline inline -> tar.write(inline.bytes());
                    case SkeletonOp.File file -> {
                        copyBody(file.ref(), files, tar, buffer);
                        tar.write(ZEROS, 0, (int) file.paddingSize());
                    }
                }
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static void copyBody(FileRef ref, FileContentSource files, OutputStream tar, byte[] buffer) throws IOException {
        try (InputStream body = files.open(ref)) {
            long left = ref.size();
            while (left > 0) {
                int n = body.read(buffer, 0, (int) Math.min(buffer.length, left));
                if (n < 0) {
                    throw new LayerRebuildException("file body " + ref.sha256() + " ended " + left + " bytes short of its " + ref.size() + " bytes");
                }
                tar.write(buffer, 0, n);
                left -= n;
            }
            if (body.read() >= 0) {
                throw new LayerRebuildException("file body " + ref.sha256() + " is longer than its " + ref.size() + " bytes");
            }
        }
    }
}
