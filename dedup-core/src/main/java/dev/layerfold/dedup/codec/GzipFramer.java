package dev.layerfold.dedup.codec;

import dev.layerfold.dedup.codec.deflate.DeflateEncoder;
import dev.layerfold.dedup.codec.identify.EncoderFactory;
import dev.layerfold.dedup.codec.recipe.GzipMember;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * Takes the rebuilt tar stream and writes the gzip members around it: each member's header
 * verbatim, its share of the tar bytes through its encoder, its trailer verbatim.
 */
final class GzipFramer extends OutputStream {

    private final List<GzipMember> members;
    private final EncoderFactory encoders;
    private final OutputStream out;
    private int member = -1;
    private long remaining;
    private DeflateEncoder encoder;

    GzipFramer(List<GzipMember> members, EncoderFactory encoders, OutputStream out) {
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
        encoder = encoders.create(next.encoder(), out);
        remaining = next.uncompressedSize();
        return true;
    }
}
