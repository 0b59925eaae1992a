package dev.layerfold.registry.api;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;

/**
 * Sizes Tomcat's connections: how many may be open at once, so that the heap holds a request in progress
 * on each, and their socket buffers, so that they all fit in direct memory.
 */
final class ConnectionBuffers {

    /**
     * Heap a request in progress holds while its client is slow, with {@link LeanHttp11NioProtocol}: Tomcat's
     * header, input and output buffers and request objects, and for an upload its virtual thread and first
     * hash buffer. Measured: 50.6 KB per request (class histograms of a registry idle and holding 2,000
     * slow readers and 2,000 slow writers; it was 70 KB with Tomcat's own buffer sizes).
     */
    static final long REQUEST_HEAP = 50 * 1024;
    /** Tomcat's NIO connector's default, and the most connections the registry opens by default. */
    static final int MAX_CONNECTIONS = 8192;

    /** Tomcat's socket read buffer ({@code socket.appReadBufSize}), which the registry leaves alone. */
    static final int READ_BUFFER = 8 * 1024;
    static final int MIN_WRITE_BUFFER = 8 * 1024;
    static final int MAX_WRITE_BUFFER = 64 * 1024;

    private ConnectionBuffers() {
    }

    /**
     * As many connections as a request in progress on each fits in four fifths of {@code maxHeap}, at most
     * {@link #MAX_CONNECTIONS}: 4,194 at a heap of 256 MiB, 8,192 from 520 MiB. Tomcat accepts no more
     * than that; later ones wait in the listen backlog, and beyond it are refused by the kernel.
     */
    static int maxConnections(long maxHeap) {
        return (int) Math.clamp(maxHeap / 5 * 4 / REQUEST_HEAP, 100, MAX_CONNECTIONS);
    }

    /** The write buffer for {@code maxConnections} connections in half of {@code directMemory}, in whole KiB. */
    static int writeBufferSize(long directMemory, int maxConnections) {
        long perConnection = directMemory / 2 / Math.max(1, maxConnections) - READ_BUFFER;
        return (int) Math.clamp(perConnection / 1024 * 1024, MIN_WRITE_BUFFER, MAX_WRITE_BUFFER);
    }

    /** {@code -XX:MaxDirectMemorySize}, or the maximum heap, which is the JVM's default for it. */
    static long maxDirectMemory() {
        String configured = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                .getVMOption("MaxDirectMemorySize").getValue();
        long bytes = Long.parseLong(configured);
        return bytes > 0 ? bytes : Runtime.getRuntime().maxMemory();
    }
}
