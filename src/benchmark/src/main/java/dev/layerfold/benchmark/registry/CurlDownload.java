package dev.layerfold.benchmark.registry;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * Large downloads through {@code curl}, into nothing. Java's HttpClient takes in a response at about
 * 0.9 GB/s on these machines, less than either registry serves a large blob at (curl reads 1.3 GB/s
 * from the reference registry and 2.5 GB/s from Layerfold here), so through it the large-pull ratio
 * measured the client. curl, like the Go clients of containerd and docker, is not the bottleneck.
 */
public final class CurlDownload {

    private CurlDownload() {
    }

    /** GETs {@code uri}, discarding the body, and returns its size; fails on any status but 200. */
    public static long discard(URI uri) throws IOException {
        Process curl = new ProcessBuilder("curl", "--silent", "--show-error", "--output", "/dev/null",
                "--write-out", "%{http_code} %{size_download}", uri.toString()).start();
        String written = new String(curl.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
        String errors = new String(curl.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        try {
            if (curl.waitFor() != 0 || !written.startsWith("200 ")) {
                throw new IOException("curl GET " + uri + " failed (exit " + curl.exitValue() + ", " + written + "): " + errors);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while curl downloaded " + uri);
        }
        return Long.parseLong(written.substring("200 ".length()));
    }
}
