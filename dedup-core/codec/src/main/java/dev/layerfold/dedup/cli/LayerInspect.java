package dev.layerfold.dedup.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.core.StreamWriteFeature;
import tools.jackson.databind.ObjectWriter;
import tools.jackson.databind.SequenceWriter;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code layerfold-codec [--json] [--no-rebuild] LAYER...}: for each layer blob file, its format,
 * the encoder that reproduces it (or none), its file count and sizes, the recipe's size, and
 * whether a full rebuild from the split gave back the same sha256. Exit status 0 if every file was
 * split and every possible rebuild matched, 1 otherwise, 2 for a usage error.
 */
public final class LayerInspect {

    private static final String USAGE = """
            usage: layerfold-codec [--json] [--no-rebuild] LAYER...
              Splits each layer blob (gzip, zstd or plain tar) into files plus a recipe, identifies the
              encoder that reproduces it, and rebuilds it to check the recipe is exact.
              --json        one JSON array, an object per file
              --no-rebuild  skip the rebuild (no scratch space needed for file bodies)""";

    /** Pretty-printed, leaving the caller's stream open when the array ends. */
    private static final ObjectWriter JSON = JsonMapper.builder().disable(StreamWriteFeature.AUTO_CLOSE_TARGET).build()
            .writerWithDefaultPrettyPrinter();

    private LayerInspect() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        boolean json = false;
        boolean rebuild = true;
        List<Path> files = new ArrayList<>();
        for (String arg : args) {
            switch (arg) {
                case "--json" -> json = true;
                case "--no-rebuild" -> rebuild = false;
                case "-h", "--help" -> {
                    out.println(USAGE);
                    return 0;
                }
                default -> {
                    if (arg.startsWith("-")) {
                        err.println("unknown option " + arg + "\n" + USAGE);
                        return 2;
                    }
                    files.add(Path.of(arg));
                }
            }
        }
        if (files.isEmpty()) {
            err.println(USAGE);
            return 2;
        }
        LayerInspector inspector = new LayerInspector(rebuild);
        boolean ok = true;
        // Each layer is printed when it is done, so a long run shows its progress, also as JSON.
        try (SequenceWriter array = json ? JSON.writeValuesAsArray(out) : null) {
            for (Path file : files) {
                Inspection inspection = inspector.inspect(file);
                ok &= inspection.ok();
                if (array != null) {
                    array.write(inspection.fields()).flush();
                } else {
                    out.println(text(inspection));
                }
            }
        }
        if (json) {
            out.println();
        }
        return ok ? 0 : 1;
    }

    private static String text(Inspection i) {
        if (i.error() != null) {
            return i.file() + ": " + (i.format() != null ? i.format() + ", " : "") + "not split: " + i.error();
        }
        StringBuilder line = new StringBuilder(i.file()).append(": ").append(i.format());
        if (i.encoder() != null) {
            line.append(", encoder ").append(i.encoder()).append(" (").append(i.encoderNote() != null ? i.encoderNote() : i.encoderCheck()).append(")");
            if (i.members() > 1) {
                line.append(", ").append(i.members()).append(i.format().equals("zstd") ? " zstd frames" : " gzip members");
            }
        }
        line.append(", ").append(i.files()).append(" files in ").append(i.entries()).append(" entries, ").append(i.fileBytes())
                .append(" file bytes, ").append(i.tarBytes()).append(" tar bytes, ").append(i.blobBytes()).append(" blob bytes, recipe ")
                .append(i.recipeBytes()).append(String.format(" bytes (%.2f%%)", 100.0 * i.recipeBytes() / Math.max(1, i.blobBytes())))
                .append(", rebuild ").append(i.rebuild());
        if (i.tarDamage() != null) {
            line.append(", tar damaged: ").append(i.tarDamage());
        }
        return line.toString();
    }
}
