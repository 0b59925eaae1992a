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
final class GzipFramer extends OutputStream {

    private final List<GzipMember> members;
    /** Opens the encoder of a member, writing to the blob. */
    interface MemberEncoders {
        DeflateEncoder open(GzipMember member, OutputStream out);
    }

    private final MemberEncoders encoders;
    private final OutputStream out;
    private int member = -1;
    private long remaining;
    private DeflateEncoder encoder;

    GzipFramer(List<GzipMember> members, MemberEncoders encoders, OutputStream out) {
        this.members = members;
        this.encoders = encoders;
        this.out = out;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] data, int offset, int length) throws IOException {
        while (length > 0) {
            while (remaining == 0) {
                closeMember();
                if (!openNextMember()) {
                    throw new LayerRebuildException("the tar skeleton holds more bytes than the gzip members");
                }
            }
            int n = (int) Math.min(length, remaining);
            encoder.write(data, offset, n);
            remaining -= n;
            offset += n;
            length -= n;
        }
    }

    /** Closes the open member and writes the members left, which must be empty. */
    void finish() throws IOException {
        do {
            if (remaining > 0) {
                throw new LayerRebuildException("the tar skeleton ends " + remaining + " bytes short of gzip member " + member + "'s size");
            }
            closeMember();
        } while (openNextMember());
    }

    /** Gives back what the member under way holds, after a failure. */
    void abort() {
        if (encoder instanceof ParallelMember parallel) {
            parallel.abort();
        }
    }

    private void closeMember() throws IOException {
        if (encoder != null) {
            encoder.finish();
            out.write(members.get(member).trailer());
            encoder = null;
        }
    }

    /** Opens the next member; false if there is none. */
    private boolean openNextMember() throws IOException {
        if (member + 1 >= members.size()) {
            return false;
        }
        member++;
        GzipMember next = members.get(member);
        out.write(next.header());
        encoder = encoders.open(next, out);
        remaining = next.uncompressedSize();
        return true;
    }
}
