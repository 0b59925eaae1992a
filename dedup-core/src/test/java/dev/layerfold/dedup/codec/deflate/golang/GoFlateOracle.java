package dev.layerfold.dedup.codec.deflate.golang;

import dev.layerfold.dedup.codec.deflate.zlib.ReferenceTools;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

/**
 * The Go toolchain's own {@code compress/flate}, as the oracle the Java port must equal: the
 * {@code flateref} reference program from {@code src/test/go}, built once per JVM into
 * {@code target/}.
 *
 * <p>Where no usable Go (1.8 to 1.26, the versions whose output the port reproduces) is found,
 * {@link #get()} aborts the calling test with a loud message, except under CI ({@code CI=true}),
 * where the oracle is mandatory and its absence fails the test.
 */
final class GoFlateOracle {

    private static final Path SOURCES = Path.of("src", "test", "go");
    private static final Path BUILT = Path.of("target", "go-reference", "flateref");
    private static final Pattern GO_VERSION = Pattern.compile("go1\\.(\\d+)(?:\\.\\d+)?");

    private static Availability availability;

    private final Path binary;
    private final String goRoot;
    private Process server;
    private DataOutputStream requests;
    private DataInputStream answers;

    private GoFlateOracle(Path binary, String goRoot) {
        this.binary = binary;
        this.goRoot = goRoot;
    }

    private record Availability(GoFlateOracle oracle, String whyNot) {
    }

    /** The oracle, or aborts (fails, under CI) the calling test when Go is unusable here. */
    static synchronized GoFlateOracle get() {
        Optional<String> whyNot = unavailableReason();
        if (whyNot.isPresent()) {
            throw ReferenceTools.missing(unavailableMessage(whyNot.get()), "golang-go");
        }
        return availability.oracle();
    }

    static String unavailableMessage(String whyNot) {
        return "GO ORACLE UNAVAILABLE, Go-compatible DEFLATE NOT VERIFIED: " + whyNot;
    }

    /** Why the oracle cannot run here, if it cannot; builds it on first use. */
    static synchronized Optional<String> unavailableReason() {
        if (availability == null) {
            availability = build();
        }
        return Optional.ofNullable(availability.whyNot());
    }

    private static Availability build() {
        Optional<Path> go = findGo();
        if (go.isEmpty()) {
            return new Availability(null, "no `go` on PATH nor at /usr/local/go/bin/go");
        }
        try {
            String version = run(List.of(go.get().toString(), "env", "GOVERSION")).strip();
            Matcher matcher = GO_VERSION.matcher(version);
            if (!matcher.matches() || Integer.parseInt(matcher.group(1)) < 8
                    || Integer.parseInt(matcher.group(1)) > 26) {
                return new Availability(null, go.get() + " is " + version
                        + ", but only Go 1.8 to 1.26 write the output GoFlateEncoder reproduces");
            }
            String goRoot = run(List.of(go.get().toString(), "env", "GOROOT")).strip();
            Files.createDirectories(BUILT.getParent());
            run(List.of(go.get().toString(), "build", "-o", BUILT.toAbsolutePath().toString(), "./flateref"));
            return new Availability(new GoFlateOracle(BUILT.toAbsolutePath(), goRoot), null);
        } catch (IOException e) {
            return new Availability(null, "building the reference program failed: " + e.getMessage());
        }
    }

    private static Optional<Path> findGo() {
        return ReferenceTools.find("go", List.of(Path.of("/usr/local/go/bin")));
    }

    /** Runs a Go tool command in the Go sources' directory and returns its standard output. */
    private static String run(List<String> command) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(SOURCES.toFile());
        // Never let `go` download another toolchain: the installed one is the oracle.
        builder.environment().put("GOTOOLCHAIN", "local");
        builder.redirectErrorStream(true);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!process.waitFor(5, TimeUnit.MINUTES) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new IOException(String.join(" ", command) + " failed: " + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted running " + command, e);
        }
        return output;
    }

    /** The Go installation's root, whose files serve as real-world test input. */
    Path goRoot() {
        return Path.of(goRoot);
    }

    /** The reference program, for tests that feed it a stream of their own. */
    Path binary() {
        return binary;
    }

    /** What Go's {@code compress/flate} writes for {@code input} at {@code level} without flushes. */
    byte[] compress(int level, byte[] input) {
        return compress(level, input, new long[0]);
    }

    /**
     * What Go writes for {@code input} at {@code level}, calling {@code Flush} after each of the
     * ascending {@code flushOffsets} input bytes.
     */
    synchronized byte[] compress(int level, byte[] input, long[] flushOffsets) {
        try {
            if (server == null || !server.isAlive()) {
                startServer();
            }
            requests.writeInt(level);
            requests.writeInt(flushOffsets.length);
            for (long offset : flushOffsets) {
                requests.writeLong(offset);
            }
            requests.writeInt(input.length);
            requests.write(input);
            requests.flush();
            int length = answers.readInt();
            if (length < 0) {
                byte[] message = new byte[answers.readInt()];
                answers.readFully(message);
                throw new IllegalStateException("flateref: " + new String(message, StandardCharsets.UTF_8));
            }
            byte[] compressed = new byte[length];
            answers.readFully(compressed);
            return compressed;
        } catch (IOException e) {
            throw new UncheckedIOException("the flateref server failed", e);
        }
    }

    private void startServer() throws IOException {
        server = new ProcessBuilder(binary.toString(), "-serve")
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        requests = new DataOutputStream(new java.io.BufferedOutputStream(server.getOutputStream(), 1 << 16));
        answers = new DataInputStream(new java.io.BufferedInputStream(server.getInputStream(), 1 << 16));
        Runtime.getRuntime().addShutdownHook(new Thread(server::destroy));
    }

    /** Starts {@code flateref} compressing its stdin at {@code level}, flushing at the given offsets. */
    Process startStream(int level, long... flushOffsets) throws IOException {
        String flushes = LongStream.of(flushOffsets).mapToObj(Long::toString).collect(Collectors.joining(","));
        return new ProcessBuilder(binary.toString(), "-level", Integer.toString(level), "-flush", flushes)
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }
}
