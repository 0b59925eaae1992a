package dev.layerfold.registry.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ConnectionBuffersTest {

    private static final long MIB = 1024 * 1024;

    @Test
    void buffersOfEveryAllowedConnectionFitInHalfOfTheDirectMemory() {
        assertThat(ConnectionBuffers.writeBufferSize(1024 * MIB, 8192)).isEqualTo(56 * 1024);
        assertThat(ConnectionBuffers.writeBufferSize(256 * MIB, 8192)).isEqualTo(8 * 1024);
        assertThat(ConnectionBuffers.writeBufferSize(256 * MIB, 1000)).isEqualTo(64 * 1024);
        assertThat(ConnectionBuffers.writeBufferSize(64 * MIB, 100_000)).isEqualTo(8 * 1024);
    }

    @Test
    void aRequestInProgressOnEveryAllowedConnectionFitsInFourFifthsOfTheHeap() {
        assertThat(ConnectionBuffers.maxConnections(256 * MIB)).isEqualTo(4194);
        assertThat(ConnectionBuffers.maxConnections(1024 * MIB)).isEqualTo(8192);
        assertThat(ConnectionBuffers.maxConnections(4 * MIB)).isEqualTo(100);
    }
}
