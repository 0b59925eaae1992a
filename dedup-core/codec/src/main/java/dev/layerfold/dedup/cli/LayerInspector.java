package dev.layerfold.dedup.cli;

import dev.layerfold.dedup.codec.LayerRebuilder;
import dev.layerfold.dedup.codec.LayerSplitter;
import dev.layerfold.dedup.codec.SplitResult;
import dev.layerfold.dedup.codec.identify.Identification;
import dev.layerfold.dedup.codec.identify.StandardEncoders;
import dev.layerfold.dedup.codec.io.FileSink;
import dev.layerfold.dedup.codec.io.LayerFormatException;
import dev.layerfold.dedup.codec.io.LayerRebuildException;
import dev.layerfold.dedup.codec.recipe.LayerFormat;
import dev.layerfold.dedup.codec.recipe.Recipe;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.stream.Collectors;

/** Splits one layer blob and, if asked, rebuilds it from the split to prove the recipe exact. */
final class LayerInspector {

    private final LayerSplitter splitter = new LayerSplitter(StandardEncoders.identifier());
    private final LayerRebuilder rebuilder = new LayerRebuilder(StandardEncoders.factory());
    private final boolean rebuild;

    LayerInspector(boolean rebuild) {
        this.rebuild = rebuild;
    }

    Inspection inspect(Path file) {
        String name = file.toString();
        LayerFormat format;
        try (InputStream in = Files.newInputStream(file)) {
            byte[] head = in.readNBytes(4);
            format = LayerFormat.sniff(head, head.length);
        } catch (IOException e) {
            return Inspection.failed(name, null, "cannot read: " + (e instanceof NoSuchFileException ? "no such file" : e.getMessage()));
        }
        Path scratch = null;
        try {
            scratch = rebuild ? Files.createTempDirectory("layerfold-inspect") : null;
            try (DirectoryFileStore store = scratch == null ? null : new DirectoryFileStore(scratch)) {
                SplitResult split;
                try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
                    split = splitter.split(in, store != null ? store : FileSink.discarding());
                }
                return describe(name, split, store == null ? "skipped" : rebuild(split.recipe(), store));
            }
        } catch (LayerFormatException e) {
            return Inspection.failed(name, format.name().toLowerCase(), e.getMessage());
        } catch (IOException | RuntimeException e) {
            return Inspection.failed(name, format.name().toLowerCase(), e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    private String rebuild(Recipe recipe, DirectoryFileStore store) throws IOException {
        if (!recipe.reproducible()) {
            return "impossible";
        }
        try {
            rebuilder.rebuild(recipe, store, OutputStream.nullOutputStream());
            return Inspection.MATCHED;
        } catch (LayerRebuildException e) {
            return "mismatch: " + e.getMessage();
        }
    }

    private static Inspection describe(String name, SplitResult split, String rebuildOutcome) {
        Recipe recipe = split.recipe();
        boolean compressed = recipe.format() != LayerFormat.TAR;
        String encoder = compressed ? split.identifications().stream().map(i -> i.encoder().label()).distinct().collect(Collectors.joining(","))
                : null;
        String check = compressed ? (split.identifications().stream().allMatch(Identification::wholeStream) ? "whole-stream" : "prefix") : null;
        String note = split.unmatchedReason().orElse(null);
        Integer members = switch (recipe.format()) {
            case GZIP -> recipe.members().size();
            case ZSTD -> recipe.frames().size();
            case TAR -> null;
        };
        return new Inspection(name, recipe.format().name().toLowerCase(), encoder, check, note, members, split.entries(),
                recipe.skeleton().fileCount(), recipe.skeleton().fileBytes(), recipe.skeleton().tarSize(), recipe.blobSize(),
                (long) recipe.toBytes().length, rebuildOutcome, split.tarDamage().orElse(null), null);
    }
}
