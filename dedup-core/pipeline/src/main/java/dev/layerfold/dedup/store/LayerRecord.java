package dev.layerfold.dedup.store;

import dev.layerfold.dedup.codec.recipe.FileRef;
import dev.layerfold.dedup.codec.recipe.Recipe;
import dev.layerfold.dedup.codec.recipe.SkeletonOp;
import dev.layerfold.dedup.codec.recipe.Varints;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.dedup.FileLocation;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything a restore needs for one deduplicated layer, in one object: the recipe, and where each
 * of its files was stored when the layer was deduplicated. The garbage collector's pack rewriting
 * moves files by switching the file index alone, so readers take the current locations from the index
 * ({@link StoredFiles#located}); these are what the layer's proof read, and what a rebuild of the index
 * starts from (following the moves recorded in the bucket).
 * The binary layout is in {@code docs/recipe-format.md} ("Layer record").
 *
 * @param files the location of every distinct file the recipe references, by the file's sha256
 */
public record LayerRecord(Recipe recipe, Map<Digest, FileLocation> files) {

    private static final byte[] MAGIC = {'L', 'F', 'L', 'R'};
    private static final int VERSION = 1;
    /** Far above any real layer; bounds what a damaged record can make a reader allocate. */
    public static final int MAX_FILES = 1 << 20;
    private static final int MAX_PACKS = 1 << 20;
    private static final int MAX_RECIPE = 64 << 20;

    /** How many first bytes tell a record from other blobs. */
    public static final int MAGIC_LENGTH = MAGIC.length;

    public LayerRecord {
        files = Map.copyOf(files);
    }

    /** Whether a blob's first {@link #MAGIC_LENGTH} bytes are a layer record's. */
    public static boolean startsWithMagic(byte[] head) {
        return Arrays.equals(head, MAGIC);
    }

    public FileLocation location(FileRef ref) {
        FileLocation location = files.get(Digest.parse("sha256:" + ref.sha256()));
        if (location == null) {
            throw new IllegalStateException("layer record of " + recipe.blobSha256() + " has no location for file " + ref.sha256());
        }
        return location;
    }

    /** The file bodies a recipe references, in the order a rebuild reads them (with repeats). */
    public static List<FileRef> filesInOrder(Recipe recipe) {
        List<FileRef> refs = new ArrayList<>(recipe.skeleton().fileCount());
        for (Iterator<SkeletonOp> ops = recipe.skeleton().ops(); ops.hasNext(); ) {
            if (ops.next() instanceof SkeletonOp.File file) {
                refs.add(file.ref());
            }
        }
        return refs;
    }

    public byte[] toBytes() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            write(bytes);
        } catch (IOException e) {
            throw new IllegalStateException("writing to memory cannot fail", e);
        }
        return bytes.toByteArray();
    }

    private void write(OutputStream out) throws IOException {
        out.write(MAGIC);
        out.write(VERSION);
        byte[] recipeBytes = recipe.toBytes();
        Varints.write(out, recipeBytes.length);
        out.write(recipeBytes);
        Map<Digest, Integer> packs = new LinkedHashMap<>();
        for (FileLocation location : files.values()) {
            packs.putIfAbsent(location.pack(), packs.size());
        }
        Varints.write(out, packs.size());
        for (Digest pack : packs.keySet()) {
            out.write(sha256Bytes(pack));
        }
        Varints.write(out, files.size());
        for (Map.Entry<Digest, FileLocation> file : files.entrySet()) {
            FileLocation location = file.getValue();
            out.write(sha256Bytes(file.getKey()));
            Varints.write(out, packs.get(location.pack()));
            Varints.write(out, location.offset());
            Varints.write(out, location.length());
            Varints.write(out, location.size());
        }
    }

    public static LayerRecord read(InputStream input) throws IOException {
        DataInputStream in = new DataInputStream(input);
        byte[] magic = in.readNBytes(MAGIC.length);
        if (!Arrays.equals(magic, MAGIC)) {
            throw new IOException("not a layer record (magic " + Arrays.toString(magic) + ")");
        }
        int version = in.read();
        if (version != VERSION) {
            throw new IOException("layer record version " + version + " is not supported; this release reads version " + VERSION);
        }
        int recipeLength = Varints.readInt(in, MAX_RECIPE, "length");
        Recipe recipe = Recipe.read(new ByteArrayInputStream(in.readNBytes(recipeLength)));
        int packCount = Varints.readInt(in, MAX_PACKS, "pack count");
        List<Digest> packs = new ArrayList<>(Math.min(packCount, 1024));
        for (int i = 0; i < packCount; i++) {
            packs.add(readSha256(in));
        }
        int fileCount = Varints.readInt(in, MAX_FILES, "file count");
        Map<Digest, FileLocation> files = new HashMap<>(Math.min(fileCount, 1 << 16));
        for (int i = 0; i < fileCount; i++) {
            Digest file = readSha256(in);
            int pack = Varints.readInt(in, packs.size() - 1, "pack index");
            files.put(file, new FileLocation(packs.get(pack), Varints.read(in), Varints.read(in), Varints.read(in)));
        }
        return new LayerRecord(recipe, files);
    }

    private static byte[] sha256Bytes(Digest digest) {
        if (digest.algorithm() != Digest.Algorithm.SHA256) {
            throw new IllegalArgumentException("layer records name files and packs by sha256, not " + digest);
        }
        return HexFormat.of().parseHex(digest.hex());
    }

    private static Digest readSha256(DataInputStream in) throws IOException {
        byte[] bytes = new byte[32];
        in.readFully(bytes);
        return Digest.fromBytes(Digest.Algorithm.SHA256, bytes);
    }
}
