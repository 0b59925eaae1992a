package dev.layerfold.storage.usage;

/**
 * The registry's figures, each blob any repository holds counted once.
 *
 * @param logicalBytes      blobs held, as pushed
 * @param storedBytes       their stored bytes: the sum of every repository's {@code freedBytes} plus {@code sharedStoredBytes}
 * @param sharedLogicalBytes blobs held by two or more repositories, as pushed
 * @param sharedStoredBytes  their stored bytes
 * @param repositories      repositories with figures
 */
public record UsageTotals(long logicalBytes, long storedBytes, long sharedLogicalBytes, long sharedStoredBytes,
                          long repositories) {
}
