package dev.layerfold.storage.redis;

import dev.layerfold.storage.Digest;

/**
 * Redis key names of the dedup queue and the dedup index. Each lives under one hash tag, so that its
 * Lua scripts (a commit changes the reference counts of every file of a layer at once) run on Redis
 * Cluster: the index is one slot, on one master. The tags start with '#', which no repository name
 * does, so they never share a slot or a key with a repository (see {@link IndexKeys}).
 */
final class DedupKeys {

    private final String queue;
    private final String index;

    DedupKeys(IndexKeys keys) {
        this.queue = keys.namespace() + ":{#dedup-queue}:";
        this.index = keys.namespace() + ":{#dedup}:";
    }

    /** Stream of waiting and taken tasks, read by one consumer group. */
    String stream() {
        return queue + "stream";
    }

    /** Sorted set: id of each taken entry, scored by when its lease runs out (Redis clock, milliseconds). */
    String leases() {
        return queue + "leases";
    }

    /** Hash: layer digest to the id of its entry, so a layer is queued once. */
    String queuedLayers() {
        return queue + "queued";
    }

    /** Hash: file digest to its location (see RedisDedupIndex). */
    String files() {
        return index + "files";
    }

    /** Hash: file digest to how many deduplicated layers reference it; absent for none. */
    String references() {
        return index + "references";
    }

    /** Sorted set: files no layer references, scored by when they were stored (Redis clock, milliseconds). */
    String unreferenced() {
        return index + "unreferenced";
    }

    /** Hash: pack digest to its size. */
    String packs() {
        return index + "packs";
    }

    /** Hash: pack digest to the compressed bytes of its files forgotten since it was written. */
    String packDead() {
        return index + "pack-dead";
    }

    /** Hash: pack digest to how many times files were recorded in it (a rewrite's fencing token). */
    String packGeneration() {
        return index + "pack-generation";
    }

    /** Hash: pack digest to when it was retired by a rewrite (Redis clock, milliseconds). */
    String retiredPacks() {
        return index + "retired-packs";
    }

    /** Hash: pack digest to when the collector marked it for deletion (Redis clock, milliseconds). */
    String condemnedPacks() {
        return index + "condemned-packs";
    }

    /** Hash: layer digest to its state. */
    String layers() {
        return index + "layers";
    }

    /** Hash: running totals of deduplicated layers (count, logical bytes, stored bytes of packs and records, file references). */
    String totals() {
        return index + "totals";
    }

    /** Hash: reason to how many layers stay intact for it. */
    String intact() {
        return index + "intact";
    }

    /** Hash: blob digest to its decayed pull count (see RedisLayerPulls). */
    String pulls() {
        return index + "pulls";
    }

    /** A worker's claim on a file, expiring by itself. */
    String claim(Digest file) {
        return index + "claim:" + file;
    }

    /**
     * Present once the index holds every layer record in the bucket, holding the fingerprint of the
     * servers it was complete on ({@link ServerFingerprint}); every script of the index checks it.
     */
    String complete() {
        return index + "index-complete";
    }
}
