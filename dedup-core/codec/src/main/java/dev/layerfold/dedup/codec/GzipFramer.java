package dev.layerfold.dedup.codec;

import dev.layerfold.dedup.codec.deflate.DeflateEncoder;
import dev.layerfold.dedup.codec.recipe.GzipMember;
import dev.layerfold.dedup.codec.restart.ParallelMember;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * Takes the rebuilt tar stream and writes the gzip members around it: each member's header
 * verbatim, its share of the tar bytes through the encoder {@code encoders} opens for it, its
 * trailer verbatim.
 */
final class GzipFramer extends ContainerFramer {

    private final List<GzipMember> members;
    /** Opens the encoder of a member, writing to the blob. */
    interface MemberEncoders {
        DeflateEncoder open(GzipMember member, OutputStream out);
    }

    private final MemberEncoders encoders;
    private final OutputStream out;
    private DeflateEncoder encoder;

    GzipFramer(List<GzipMember> members, MemberEncoders encoders, OutputStream out) {
        super("gzip members");
        this.members = members;
        this.encoders = encoders;
        this.out = out;
    }

    /** Gives back what the member under way holds, after a failure. */
    void abort() {
        if (encoder instanceof ParallelMember parallel) {
            parallel.abort();
        }
    }

    @Override
    long open(int index) throws IOException {
        if (index >= members.size()) {
            return -1;
        }
        GzipMember member = members.get(index);
        out.write(member.header());
        encoder = encoders.open(member, out);
        return member.uncompressedSize();
    }

    @Override
    void encode(byte[] data, int offset, int length) throws IOException {
        encoder.write(data, offset, length);
    }

    @Override
    void close(int index) throws IOException {
        encoder.finish();
        out.write(members.get(index).trailer());
        encoder = null;
    }
}
