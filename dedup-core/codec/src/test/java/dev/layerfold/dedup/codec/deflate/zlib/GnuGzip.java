package dev.layerfold.dedup.codec.deflate.zlib;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The system's GNU {@code gzip}, the oracle for {@link GnuGzipEncoder}: {@code gzip -n -LEVEL} from
 * stdin, whose fixed 10-byte header and 8-byte trailer are cut off to leave the raw deflate stream.
 */
final class GnuGzip {

    private static final int HEADER = 10;
    private static final int TRAILER = 8;

    private GnuGzip() {
    }

    static byte[] deflate(int level, byte[] input) {
        Path gzip = ReferenceTools.require("gzip", "GNU gzip's deflate");
        try {
            Process process = new ProcessBuilder(gzip.toString(), "-n", "-" + level)
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            Thread feeder = Thread.ofPlatform().start(() -> {
                try (OutputStream in = process.getOutputStream()) {
                    in.write(input);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            byte[] member = process.getInputStream().readAllBytes();
            feeder.join();
            if (process.waitFor() != 0 || member.length < HEADER + TRAILER) {
                throw new IllegalStateException("gzip -" + level + " failed");
            }
            return Arrays.copyOfRange(member, HEADER, member.length - TRAILER);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
