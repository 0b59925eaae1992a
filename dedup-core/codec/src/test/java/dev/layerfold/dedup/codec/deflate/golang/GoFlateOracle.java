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
 * A Go toolchain's own {@code compress/flate}, as the oracle a Java port must equal: the
 * {@code flateref} reference program from {@code src/test/go}, built once per JVM and toolchain
 * into {@code target/}. {@link #get()} is the installed Go (1.8 to 1.26, what
 * {@link GoFlateEncoder} reproduces); {@link #release} is a named release that {@code go}
 * downloads through the module proxy ({@code GOTOOLCHAIN}), e.g. Go 1.27 for the klauspost port.
 *
 * <p>Where the oracle cannot be built, {@link #get()} and {@link #release} abort the calling test
 * with a loud message, except under CI ({@code CI=true}), where the oracle is mandatory and its
 * absence fails the test.
 */
public final class GoFlateOracle {

    private static final Path SOURCES = ReferenceTools.sources("go");
    private static final Pattern GO_VERSION = Pattern.compile("go1\\.(\\d+)(?:\\.\\d+)?");
    private static final String INSTALLED = "local";

    private static final java.util.Map<String, Availability> AVAILABILITY = new java.util.HashMap<>();

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

    /** The installed Go's oracle, or aborts (fails, under CI) the calling test when Go is unusable here. */
    public static GoFlateOracle get() {
        return release(INSTALLED);
    }

    /**
     * The oracle of Go release {@code toolchain} (e.g. {@code go1.27.3}), which {@code go} fetches
     * through the module proxy on first use, or aborts (fails, under CI) the calling test.
     */
    public static synchronized GoFlateOracle release(String toolchain) {
        Optional<String> whyNot = unavailableReason(toolchain);
        if (whyNot.isPresent()) {
            throw ReferenceTools.missing(unavailableMessage(whyNot.get()), "golang-go");
        }
        return AVAILABILITY.get(toolchain).oracle();
    }

    static String unavailableMessage(String whyNot) {
        return "GO ORACLE UNAVAILABLE, Go-compatible DEFLATE NOT VERIFIED: " + whyNot;
    }

    /** Why the installed Go's oracle cannot run here, if it cannot; builds it on first use. */
    static Optional<String> unavailableReason() {
        return unavailableReason(INSTALLED);
    }

    /** Why release {@code toolchain}'s oracle cannot run here, if it cannot; builds it on first use. */
    public static synchronized Optional<String> unavailableReason(String toolchain) {
        return Optional.ofNullable(AVAILABILITY.computeIfAbsent(toolchain, GoFlateOracle::build).whyNot());
    }

    private static Availability build(String toolchain) {
        Optional<Path> go = findGo();
        if (go.isEmpty()) {
            return new Availability(null, "no `go` on PATH nor at /usr/local/go/bin/go");
        }
        try {
            String version = run(toolchain, List.of(go.get().toString(), "env", "GOVERSION")).strip();
            Matcher matcher = GO_VERSION.matcher(version);
            if (toolchain.equals(INSTALLED) && (!matcher.matches() || Integer.parseInt(matcher.group(1)) < 8
                    || Integer.parseInt(matcher.group(1)) > 26)) {
                return new Availability(null, go.get() + " is " + version
                        + ", but only Go 1.8 to 1.26 write the output GoFlateEncoder reproduces");
            }
            if (!toolchain.equals(INSTALLED) && !version.equals(toolchain)) {
                return new Availability(null, "GOTOOLCHAIN=" + toolchain + " gave " + version);
            }
            String goRoot = run(toolchain, List.of(go.get().toString(), "env", "GOROOT")).strip();
            Path built = Path.of("target", "go-reference",
                    toolchain.equals(INSTALLED) ? "flateref" : "flateref-" + toolchain).toAbsolutePath();
            Files.createDirectories(built.getParent());
            run(toolchain, List.of(go.get().toString(), "build", "-o", built.toString(), "./flateref"));
            return new Availability(new GoFlateOracle(built, goRoot), null);
        } catch (IOException e) {
            return new Availability(null, "building the reference program with " + toolchain
                    + " failed: " + e.getMessage());
        }
    }

    private static Optional<Path> findGo() {
        return ReferenceTools.find("go", List.of(Path.of("/usr/local/go/bin")));
    }

    /**
     * Runs a Go tool command in the Go sources' directory with {@code GOTOOLCHAIN=toolchain} and
     * returns its standard output. With {@code local}, {@code go} never downloads another toolchain.
     */
    private static String run(String toolchain, List<String> command) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(SOURCES.toFile());
        builder.environment().put("GOTOOLCHAIN", toolchain);
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
    public Path goRoot() {
        return Path.of(goRoot);
    }

    /** The reference program, for tests that feed it a stream of their own. */
    public Path binary() {
        return binary;
    }

    /** What Go's {@code compress/flate} writes for {@code input} at {@code level} without flushes. */
    public byte[] compress(int level, byte[] input) {
        return compress(level, input, new long[0]);
    }

    /**
     * What Go writes for {@code input} at {@code level}, calling {@code Flush} after each of the
     * ascending {@code flushOffsets} input bytes.
     */
    public synchronized byte[] compress(int level, byte[] input, long[] flushOffsets) {
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
    public Process startStream(int level, long... flushOffsets) throws IOException {
        String flushes = LongStream.of(flushOffsets).mapToObj(Long::toString).collect(Collectors.joining(","));
        return new ProcessBuilder(binary.toString(), "-level", Integer.toString(level), "-flush", flushes)
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }
}
