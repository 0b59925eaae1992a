package dev.layerfold.benchmark.dedup;

/**
 * Who compressed a layer: the producers the codec reproduces, each run as the real tool (Go's
 * {@code compress/gzip} through the codec tests' {@code layergen}, {@code pigz}, the JDK's zlib).
 */
public enum Producer {
    /** docker push, buildkit, containerd: Go's archive/tar and compress/gzip at level 6. */
    GO_6("go-6", "docker (Go gzip -6)"),
    /** crane, ko, kaniko: the same at level 1. */
    GO_1("go-1", "crane (Go gzip -1)"),
    /** Go tools that pick a fast level above BestSpeed: the same at level 2, greedy hash chains. Only the restart suite measures it. */
    GO_2("go-2", "Go gzip -2"),
    /** Go tools that store (gzip.NoCompression): the same at level 0. Only the restart suite measures it. */
    GO_0("go-0", "Go gzip level 0 (stored)"),
    /** Go tools that ask for gzip.HuffmanOnly: the same at level -2. Only the restart suite measures it. */
    GO_HUFFMAN_ONLY("go--2", "Go gzip level -2 (HuffmanOnly)"),
    /** docker push, buildkit, containerd built with Go 1.27, whose compress/flate is klauspost's: level 6. */
    GO127_6("go127-6", "docker on Go 1.27 (Go gzip -6)"),
    /** eStargz and some tools on Go 1.27: its lazy level 9. Only the restart suite measures it. */
    GO127_9("go127-9", "eStargz on Go 1.27 (Go gzip -9)"),
    /** Go tools on Go 1.27 that ask for gzip.HuffmanOnly: its table may span windows. Only the restart suite measures it. */
    GO127_HUFFMAN_ONLY("go127--2", "Go 1.27 gzip level -2 (HuffmanOnly)"),
    /** Debian's official images (debuerreotype): GNU tar through {@code pigz -9}. */
    PIGZ_9("pigz-9", "Debian (pigz -9)"),
    /** pigz's default level, {@code pigz -6}. */
    PIGZ_6("pigz-6", "pigz default (pigz -6)"),
    /** podman, buildah, skopeo and CRI-O: klauspost/pgzip at its default level with 1 MiB blocks, compress 1.20. */
    PGZIP("pgzip", "podman (pgzip -1, 1 MiB blocks)"),
    /** Jib and other Java tools: GNU tar here, through {@code java.util.zip.GZIPOutputStream} (zlib -6). */
    JDK_ZLIB_6("jdk-6", "Jib (JDK zlib -6)"),
    /** Scripts and older tools: GNU tar through GNU {@code gzip -6}. Only the restart suite measures it. */
    GNU_GZIP_6("gzip-6", "scripts (GNU gzip -6)"),
    /** Scripts that want speed: GNU tar through GNU {@code gzip -1}. Only the restart suite measures it. */
    GNU_GZIP_1("gzip-1", "fast scripts (GNU gzip -1)"),
    /** Python tools that want speed: GNU tar through {@code gzip.compress(data, 1)} (the system's zlib -1). Only the restart suite measures it. */
    PYTHON_ZLIB_1("zlib-1", "Python (zlib -1)"),
    /** stargz-snapshotter's eStargz (Go gzip -9, its default): a gzip member per file or 4 MiB chunk, then the TOC's and the footer's. Only the restart suite measures it. */
    ESTARGZ("estargz-9", "eStargz (Go gzip -9, a member per file)"),
    /** podman's and buildah's zstd:chunked (containers/storage's compressor, zstd level 3): a zstd frame per file. Only the restart suite measures it. */
    ZSTD_CHUNKED("zstd-chunked", "podman zstd:chunked (klauspost zstd, a frame per file)"),
    /**
     * podman, buildah, containerd, BuildKit writing zstd layers: GNU tar through klauspost/compress 1.18.0's zstd Writer at
     * its default level (zstd level 3, SpeedDefault). Only the restart suite measures it.
     */
    KLAUSPOST_ZSTD_3("zstd-3", "podman (klauspost zstd -3)"),
    /** The same at containers/image's zstd levels 1-2 (SpeedFastest). Only the restart suite measures it. */
    KLAUSPOST_ZSTD_1("zstd-1", "podman (klauspost zstd -1)"),
    /** The same at containers/image's zstd levels 5-9 (SpeedBetterCompression). Only the restart suite measures it. */
    KLAUSPOST_ZSTD_5("zstd-5", "podman (klauspost zstd -5)"),
    /** The same at containers/image's zstd levels 10 and up (SpeedBestCompression). Only the restart suite measures it. */
    KLAUSPOST_ZSTD_10("zstd-10", "podman (klauspost zstd -10)"),
    /**
     * The zstd CLI compressing a tar file (its default: one worker thread, the size pledged, a checksum): GNU tar through libzstd
     * 1.5.7 (src/test/zstdgen's cgo build) at level 3. Only the restart suite measures it.
     */
    LIBZSTD_3("libzstd-3", "zstd CLI (libzstd -3, a worker thread)"),
    /** The same at level 19 ({@code zstd -19}). Only the restart suite measures it. */
    LIBZSTD_19("libzstd-19", "zstd CLI (libzstd -19, a worker thread)");

    final String label;
    final String description;

    Producer(String label, String description) {
        this.label = label;
        this.description = description;
    }

    /** The producer with this label ({@code go-6}, {@code zstd-3}, ...). */
    static Producer labelled(String label) {
        for (Producer producer : values()) {
            if (producer.label.equals(label)) {
                return producer;
            }
        }
        throw new IllegalArgumentException("no producer is labelled " + label);
    }

    /** Whether only the restart suite measures this producer. */
    boolean restartOnly() {
        return this == GNU_GZIP_6 || this == GNU_GZIP_1 || this == PYTHON_ZLIB_1 || this == GO127_9 || this == GO_2
                || this == GO_0 || this == GO_HUFFMAN_ONLY || this == PGZIP || this == GO127_HUFFMAN_ONLY || this == ESTARGZ || zstd();
    }

    boolean needsGo() {
        return this == GO_6 || this == GO_1 || this == GO_2 || this == GO_0 || this == GO_HUFFMAN_ONLY || this == PGZIP || this == GO127_6 || this == GO127_9
                || this == GO127_HUFFMAN_ONLY || this == ESTARGZ || zstd();
    }

    /** Whether its layers are zstd (klauspost's Writer, zstd:chunked's compressor over it, or libzstd), not gzip. */
    boolean zstd() {
        return this == KLAUSPOST_ZSTD_3 || this == KLAUSPOST_ZSTD_1 || this == KLAUSPOST_ZSTD_5 || this == KLAUSPOST_ZSTD_10 || this == ZSTD_CHUNKED || libzstd();
    }

    /** Whether its layers are libzstd's with worker threads, whose rebuilds compress on libzstd's own native threads, not the caller's. */
    boolean libzstd() {
        return this == LIBZSTD_3 || this == LIBZSTD_19;
    }

    /** The OCI media type of its layers. */
    String mediaType() {
        return zstd() ? "application/vnd.oci.image.layer.v1.tar+zstd" : "application/vnd.oci.image.layer.v1.tar+gzip";
    }
}
