package dev.layerfold.storage.filesystem;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Starts writing an upload's bytes to disk while the rest is still arriving, so that the fsync which
 * publishes the blob finds little left to write. Left alone, Linux writes dirty pages back only after
 * they are 30 s old ({@code vm.dirty_expire_centisecs}), so the publishing fsync of a layer pushed in a
 * few seconds would write all of it while the client waits (about a tenth of the push time here).
 * Java has no {@code sync_file_range}; an fdatasync on a thread of its own does the same without
 * holding up the request. It promises nothing: durability still comes from the fsync at publish.
 */
final class EarlyWriteback {

    /** Bytes written between two writebacks of an upload. */
    static final long INTERVAL = 32L << 20;

    /** Writebacks beyond these threads' capacity are skipped: the fsync at publish catches up. */
    private static final ThreadPoolExecutor WRITERS = new ThreadPoolExecutor(0, 2, 30, TimeUnit.SECONDS,
            new SynchronousQueue<>(), Thread.ofPlatform().name("upload-writeback-", 0).daemon().factory(),
            new ThreadPoolExecutor.DiscardPolicy());

    private EarlyWriteback() {
    }

    /** Whether an append that took an upload from {@code before} to {@code after} bytes should start one. */
    static boolean due(long before, long after) {
        return before / INTERVAL != after / INTERVAL;
    }

    /** Starts writing back the upload at {@code file}, unless the writers are all busy. */
    static void start(Path file) {
        WRITERS.execute(() -> writeBack(file));
    }

    private static void writeBack(Path file) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            channel.force(false);
        } catch (IOException e) {
            // Published (renamed) or aborted meanwhile, or the disk failed: publish's own fsync reports that.
        }
    }
}
