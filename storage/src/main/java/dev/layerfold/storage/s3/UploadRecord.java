package dev.layerfold.storage.s3;

import dev.layerfold.storage.Digest;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An upload as stored in its one record object: the multipart upload holding its full parts, the
 * ETags of the parts it has committed, and the tail, the bytes after the last full part, which S3
 * would reject as a part because they are fewer than the minimum.
 *
 * <p>Every append ends by replacing this object in one PUT, so an append is all or nothing: a part
 * uploaded by an append that failed before its PUT is not listed here and is overwritten by the next
 * append of the same part number.
 *
 * @param multipartId S3's multipart upload id, null until the first full part
 * @param publishing the digest a publish in progress completes the upload as, or null
 */
record UploadRecord(long size, int partSize, String multipartId, List<String> partEtags, byte[] tail,
                    Digest publishing) {

    private static final String MAGIC = "layerfold-upload 1";

    UploadRecord {
        partEtags = List.copyOf(partEtags);
    }

    static UploadRecord empty(int partSize) {
        return new UploadRecord(0, partSize, null, List.of(), new byte[0], null);
    }

    /** Bytes held in committed parts, which S3 cannot read back before the upload completes. */
    long bytesInParts() {
        return (long) partEtags.size() * partSize;
    }

    boolean hasParts() {
        return !partEtags.isEmpty();
    }

    byte[] encode() {
        StringBuilder header = new StringBuilder(MAGIC).append('\n')
                .append(size).append('\n')
                .append(partSize).append('\n')
                .append(multipartId == null ? "-" : multipartId).append('\n')
                .append(publishing == null ? "-" : publishing).append('\n')
                .append(partEtags.size()).append('\n');
        partEtags.forEach(etag -> header.append(etag).append('\n'));
        ByteArrayOutputStream out = new ByteArrayOutputStream(header.length() + tail.length);
        out.writeBytes(header.toString().getBytes(StandardCharsets.UTF_8));
        out.writeBytes(tail);
        return out.toByteArray();
    }

    static UploadRecord decode(byte[] bytes) {
        Reader reader = new Reader(bytes);
        if (!MAGIC.equals(reader.line())) {
            throw new IllegalStateException("not an upload record (written by a different version?)");
        }
        long size = Long.parseLong(reader.line());
        int partSize = Integer.parseInt(reader.line());
        String multipartId = orNull(reader.line());
        String publishing = orNull(reader.line());
        int parts = Integer.parseInt(reader.line());
        List<String> etags = new ArrayList<>(parts);
        for (int i = 0; i < parts; i++) {
            etags.add(reader.line());
        }
        return new UploadRecord(size, partSize, multipartId, etags, reader.rest(),
                publishing == null ? null : Digest.parse(publishing));
    }

    private static String orNull(String field) {
        return "-".equals(field) ? null : field;
    }

    private static final class Reader {
        private final byte[] bytes;
        private int position;

        Reader(byte[] bytes) {
            this.bytes = bytes;
        }

        String line() {
            int start = position;
            while (position < bytes.length && bytes[position] != '\n') {
                position++;
            }
            if (position == bytes.length) {
                throw new IllegalStateException("truncated upload record");
            }
            return new String(bytes, start, position++ - start, StandardCharsets.UTF_8);
        }

        byte[] rest() {
            return Arrays.copyOfRange(bytes, position, bytes.length);
        }
    }
}
