package dev.layerfold.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

class BlobBytesTest {

    @Test
    void layersOfSharedFilesAreGzipdTarsOfAboutTheirSizeWithFilesInCommon() throws IOException {
        BlobBytes first = BlobBytes.layerOfSharedFiles("sha256:aaaa", 2_000_000);
        BlobBytes second = BlobBytes.layerOfSharedFiles("sha256:bbbb", 2_000_000);

        assertThat(first.bytes().length).isBetween(1_000_000, 3_000_000);
        assertThat(BlobBytes.layerOfSharedFiles("sha256:aaaa", 2_000_000).digest()).as("the same bytes every time").isEqualTo(first.digest());
        Map<String, byte[]> firstFiles = files(first.bytes());
        Map<String, byte[]> secondFiles = files(second.bytes());
        long shared = secondFiles.entrySet().stream()
                .filter(file -> firstFiles.entrySet().stream().anyMatch(other -> poolFile(other.getKey()).equals(poolFile(file.getKey()))
                        && java.util.Arrays.equals(other.getValue(), file.getValue())))
                .count();
        assertThat(shared).as("files of the pool, byte for byte, in both").isPositive();
    }

    private static String poolFile(String name) {
        return name.substring(name.indexOf('-') + 1);
    }

    /** The regular files of a gzip'd tar, read by hand (names and contents). */
    private static Map<String, byte[]> files(byte[] layer) throws IOException {
        Map<String, byte[]> files = new HashMap<>();
        try (InputStream tar = new GZIPInputStream(new ByteArrayInputStream(layer))) {
            while (true) {
                byte[] header = tar.readNBytes(512);
                assertThat(header).hasSize(512);
                if (header[0] == 0) {
                    return files;
                }
                String name = new String(header, 0, 100, StandardCharsets.US_ASCII).replace("\0", "");
                int size = Integer.parseInt(new String(header, 124, 11, StandardCharsets.US_ASCII), 8);
                int checksum = Integer.parseInt(new String(header, 148, 6, StandardCharsets.US_ASCII), 8);
                java.util.Arrays.fill(header, 148, 156, (byte) ' ');
                int sum = 0;
                for (byte b : header) {
                    sum += b & 0xff;
                }
                assertThat(checksum).as("header checksum of " + name).isEqualTo(sum);
                files.put(name, tar.readNBytes(size));
                tar.readNBytes((512 - size % 512) % 512);
            }
        }
    }
}
