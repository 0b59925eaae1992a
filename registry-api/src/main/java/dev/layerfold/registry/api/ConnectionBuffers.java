package dev.layerfold.registry.api;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;

/** Sizes Tomcat's per-connection socket buffers so that every allowed connection fits in direct memory. */
final class ConnectionBuffers {

    /** Tomcat's socket read buffer ({@code socket.appReadBufSize}), which the registry leaves alone. */
    static final int READ_BUFFER = 8 * 1024;
    static final int MIN_WRITE_BUFFER = 8 * 1024;
    static final int MAX_WRITE_BUFFER = 64 * 1024;

    private ConnectionBuffers() {
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
