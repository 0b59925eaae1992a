package dev.layerfold.dedup.codec;

import dev.layerfold.dedup.codec.container.BlobInput;
import dev.layerfold.dedup.codec.container.DeflateMember;
import dev.layerfold.dedup.codec.container.GzipHeader;
import dev.layerfold.dedup.codec.identify.EncoderIdentifier;
import dev.layerfold.dedup.codec.identify.Identification;
import dev.layerfold.dedup.codec.io.FileSink;
import dev.layerfold.dedup.codec.io.LayerFormatException;
import dev.layerfold.dedup.codec.recipe.GzipMember;
import dev.layerfold.dedup.codec.recipe.LayerFormat;
import dev.layerfold.dedup.codec.recipe.Recipe;
import dev.layerfold.dedup.codec.recipe.SkeletonWriter;
import dev.layerfold.dedup.codec.recipe.ZstdFrame;
import dev.layerfold.dedup.codec.tar.TarSplitter;
import dev.layerfold.dedup.codec.zstd.ZstdEncoders;
import dev.layerfold.dedup.codec.zstd.ZstdIdentifier;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Splits a layer blob, in one streaming pass, into file bodies (given to a {@link FileSink}) and a
 * {@link Recipe} that rebuilds the blob byte for byte, identifying each gzip member's or zstd frame's
 * encoder on the way. Plain tar, gzip and zstd layers are split. Memory use is
 * bounded by buffers and the compressed skeleton, whatever the layer's size. Thread-safe: each call
 * uses its own state.
 */
public final class LayerSplitter {

    private static final int BUFFER = 64 * 1024;

    private final EncoderIdentifier identifier;
    private final ZstdEncoders zstd;

    /** A splitter whose zstd frames are identified among the standard zstd encoders. */
    public LayerSplitter(EncoderIdentifier identifier) {
        this(identifier, ZstdEncoders.standard());
    }

    public LayerSplitter(EncoderIdentifier identifier, ZstdEncoders zstd) {
        this.identifier = identifier;
        this.zstd = zstd;
    }

    /**
     * Splits {@code blob}, reading it to its end (the caller closes it) and computing its sha256.
     *
     * @throws LayerFormatException for a damaged gzip or zstd container (truncated, bad CRC or checksum,
     *                              corrupt compressed data): no recipe is produced, and a body the sink
     *                              had open is aborted (bodies completed before stay valid: each is
     *                              whole and named by its sha256)
     */
    public SplitResult split(InputStream blob, FileSink sink) throws IOException {
        return split(blob, Optional.empty(), sink);
    }

    /**
     * Splits a blob whose sha256 the caller already verified (a registry hashes every blob as it is
     * pushed), saving a third of the split's hashing for a typical gzip layer. The digest is not
     * checked here: a wrong one makes the rebuild check fail, so no layer is thinned on its account.
     *
     * @see #split(InputStream, FileSink)
     */
    public SplitResult split(InputStream blob, String knownSha256, FileSink sink) throws IOException {
        return split(blob, Optional.of(knownSha256), sink);
    }

    private SplitResult split(InputStream blob, Optional<String> knownSha256, FileSink sink) throws IOException {
        BlobInput in = new BlobInput(blob, BUFFER, knownSha256.isEmpty());
        LayerFormat format = LayerFormat.sniff(in.buffer(), in.require(4));
        SkeletonWriter skeleton = new SkeletonWriter();
        TarSplitter tar = new TarSplitter(sink, skeleton);
        List<GzipMember> members = new ArrayList<>();
        List<ZstdFrame> frames = new ArrayList<>();
        List<Identification> identifications = new ArrayList<>();
        byte[] trailing = new byte[0];
        try {
            switch (format) {
                case TAR -> {
                    while (in.fill() > 0) {
                        tar.write(in.buffer(), in.position(), in.available());
                        in.skip(in.available());
                    }
                }
                case GZIP -> trailing = splitGzip(in, tar, members, identifications);
                case ZSTD -> {
                    new ZstdFrameSplitter(in, tar, new ZstdIdentifier(zstd)).split(frames, identifications);
                    trailing = readTrailing(in, "zstd frame");
                }
            }
            tar.finish();
        } catch (IOException | RuntimeException e) {
            tar.abort();
            throw e;
        }
        Recipe recipe = new Recipe(knownSha256.orElseGet(in::sha256Hex), in.size(), format, members, trailing, skeleton.finish(), frames);
        return new SplitResult(recipe, identifications, tar.entries(), tar.damage());
    }

    private byte[] splitGzip(BlobInput in, TarSplitter tar, List<GzipMember> members, List<Identification> identifications)
            throws IOException {
        DeflateMember deflate = new DeflateMember(BUFFER);
        EncoderIdentifier.Members identifying = identifier.members();
        try {
            do {
                GzipHeader header = GzipHeader.read(in);
                EncoderIdentifier.Session session = identifying.start(header);
                DeflateMember.End end = deflate.read(in, new DeflateMember.Listener() {
                    @Override
                    public void deflated(byte[] data, int offset, int length) {
                        session.deflated(data, offset, length);
                    }

                    @Override
                    public void inflated(byte[] data, int offset, int length) throws IOException {
                        session.inflated(data, offset, length);
                        tar.write(data, offset, length);
                    }
                });
                Identification identification = session.finish();
                identifications.add(identification);
                members.add(new GzipMember(header.bytes(), identification.encoder(), end.uncompressedSize(), end.trailer()));
            } while (nextIsGzipMember(in));
        } finally {
            deflate.close();
        }
        return readTrailing(in, "gzip member");
    }

    private static boolean nextIsGzipMember(BlobInput in) throws IOException {
        return in.require(2) >= 2 && (in.buffer()[in.position()] & 0xff) == 0x1f && (in.buffer()[in.position() + 1] & 0xff) == 0x8b;
    }

    private static byte[] readTrailing(BlobInput in, String container) throws IOException {
        long start = in.offset();
        ByteArrayOutputStream trailing = new ByteArrayOutputStream();
        while (in.fill() > 0) {
            if (trailing.size() + in.available() > Recipe.MAX_TRAILING_BYTES) {
                throw new LayerFormatException("more than " + Recipe.MAX_TRAILING_BYTES + " bytes follow the last " + container + " (from offset "
                        + start + "); such a layer is not split");
            }
            trailing.write(in.buffer(), in.position(), in.available());
            in.skip(in.available());
        }
        return trailing.toByteArray();
    }
}
