package dev.layerfold.dedup.codec.deflate.zlib;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The system zlib as oracle: one long-lived {@code python3 src/test/zlibref/zlib_reference.py} per JVM,
 * which runs {@link ZlibScript}s on libz through ctypes. Started on first use, stopped at JVM exit.
 */
final class SystemZlib {

    private static final Path SCRIPT = ReferenceTools.sources("zlibref", "zlib_reference.py");
    private static SystemZlib instance;

    private final Process process;
    private final DataOutputStream requests;
    private final DataInputStream answers;
    private final String version;

    private SystemZlib(Path python) throws IOException {
        process = new ProcessBuilder(python.toString(), SCRIPT.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        requests = new DataOutputStream(process.getOutputStream());
        answers = new DataInputStream(process.getInputStream());
        version = new String(answer(), StandardCharsets.US_ASCII);
        Runtime.getRuntime().addShutdownHook(new Thread(process::destroy));
    }

    /** The shared oracle; aborts (fails, under CI) the calling test when python3 is missing. */
    static synchronized SystemZlib get() throws IOException {
        if (instance == null) {
            instance = new SystemZlib(ReferenceTools.require("python3", "zlib-compatible DEFLATE"));
        }
        return instance;
    }

    /** zlibVersion() of the library the oracle runs. */
    String version() {
        return version;
    }

    synchronized byte[] run(ZlibScript script) throws IOException {
        byte[] request = script.encode();
        requests.writeInt(request.length);
        requests.write(request);
        requests.flush();
        return answer();
    }

    private byte[] answer() throws IOException {
        int length = answers.readInt();
        if (length < 0) {
            throw new IllegalStateException("system zlib refused the script: "
                    + new String(answers.readNBytes(-length), StandardCharsets.UTF_8));
        }
        return answers.readNBytes(length);
    }
}
