package dev.layerfold.dedup.codec.deflate.pigz;

import dev.layerfold.dedup.codec.deflate.zlib.ReferenceTools;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/** The pigz binary as oracle: the raw deflate stream it writes for given settings. */
final class Pigz {

    private Pigz() {
    }

    /** pigz's command line for {@code settings}, reading stdin and writing stdout. */
    static List<String> command(PigzSettings settings) {
        String pigz = ReferenceTools.require("pigz", "pigz-compatible DEFLATE").toString();
        List<String> command = new ArrayList<>(List.of(pigz, "-c", "-" + settings.level(),
                "-b", Integer.toString(settings.blockSize() / 1024),
                "-p", settings.singleThread() ? "1" : "2"));
        if (settings.independent()) {
            command.add("-i");
        }
        return command;
    }

    /** The deflate stream pigz writes for {@code input}, without gzip header and trailer. */
    static byte[] deflate(PigzSettings settings, byte[] input) throws IOException {
        Process pigz = start(settings);
        Thread feeder = Thread.ofVirtual().start(() -> {
            try (var in = pigz.getOutputStream()) {
                in.write(input);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        try (InputStream deflate = new GzipMember(pigz.getInputStream())) {
            byte[] stream = deflate.readAllBytes();
            feeder.join();
            if (pigz.waitFor() != 0) {
                throw new IOException("pigz failed: " + command(settings));
            }
            return stream;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        } finally {
            pigz.destroy();
        }
    }

    static Process start(PigzSettings settings) throws IOException {
        return new ProcessBuilder(command(settings)).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }
}
