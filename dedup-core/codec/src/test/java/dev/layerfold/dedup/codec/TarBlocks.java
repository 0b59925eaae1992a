package dev.layerfold.dedup.codec;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Builds tar streams block by block, for header shapes the tar tools here do not write. */
final class TarBlocks {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    /** A ustar header whose size field holds {@code sizeField}, octal or GNU base-256. */
    TarBlocks header(String name, char type, long sizeField, boolean base256) {
        byte[] block = new byte[512];
        put(block, 0, name);
        put(block, 100, "0000644");
        put(block, 108, "0000000");
        put(block, 116, "0000000");
        if (base256) {
            block[124] = (byte) 0x80;
            for (int i = 0; i < 8; i++) {
                block[135 - i] = (byte) (sizeField >>> (8 * i));
            }
        } else {
            put(block, 124, String.format("%011o", sizeField));
        }
        put(block, 136, "00000000000");
        block[156] = (byte) type;
        put(block, 257, "ustar");
        put(block, 263, "00");
        Arrays.fill(block, 148, 156, (byte) ' ');
        int sum = 0;
        for (byte b : block) {
            sum += b & 0xff;
        }
        put(block, 148, String.format("%06o", sum));
        block[154] = 0;
        out.writeBytes(block);
        return this;
    }

    /** A PAX extended header ({@code x}) with the given records. */
    TarBlocks pax(String... keyValues) {
        StringBuilder records = new StringBuilder();
        for (int i = 0; i < keyValues.length; i += 2) {
            String record = " " + keyValues[i] + "=" + keyValues[i + 1] + "\n";
            int length = record.length() + 1;
            while (String.valueOf(length).length() + record.length() != length) {
                length++;
            }
            records.append(length).append(record);
        }
        byte[] body = records.toString().getBytes(StandardCharsets.UTF_8);
        header("PaxHeaders/x", 'x', body.length, false);
        return data(body, (byte) 0);
    }

    /** Body bytes, padded to the block size with {@code fill}. */
    TarBlocks data(byte[] body, byte fill) {
        out.writeBytes(body);
        byte[] padding = new byte[(512 - body.length % 512) % 512];
        Arrays.fill(padding, fill);
        out.writeBytes(padding);
        return this;
    }

    TarBlocks raw(byte[] bytes) {
        out.writeBytes(bytes);
        return this;
    }

    TarBlocks endOfArchive() {
        out.writeBytes(new byte[1024]);
        return this;
    }

    byte[] bytes() {
        return out.toByteArray();
    }

    private static void put(byte[] block, int offset, String value) {
        byte[] bytes = value.getBytes(StandardCharsets.ISO_8859_1);
        System.arraycopy(bytes, 0, block, offset, bytes.length);
    }
}
