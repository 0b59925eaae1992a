package dev.layerfold.dedup.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code layerfold-codec [--json] [--no-rebuild] LAYER...}: for each layer blob file, its format,
 * the encoder that reproduces it (or none), its file count and sizes, the recipe's size, and
 * whether a full rebuild from the split gave back the same sha256. Exit status 0 if every file was
 * split and every possible rebuild matched, 1 otherwise, 2 for a usage error.
 */
public final class LayerInspect {

    private static final String USAGE = """
            usage: layerfold-codec [--json] [--no-rebuild] LAYER...
              Splits each layer blob (gzip or plain tar) into files plus a recipe, identifies the
              encoder that reproduces it, and rebuilds it to check the recipe is exact.
              --json        one JSON array, an object per file
              --no-rebuild  skip the rebuild (no scratch space needed for file bodies)""";

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
        if (json) {
            out.println("[");
        }
        for (int i = 0; i < files.size(); i++) {
            Inspection inspection = inspector.inspect(files.get(i));
            ok &= inspection.ok();
            out.println(json ? Json.object(inspection.fields()) + (i < files.size() - 1 ? "," : "") : text(inspection));
        }
        if (json) {
            out.println("]");
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
                line.append(", ").append(i.members()).append(" gzip members");
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

    /** Just enough JSON for flat objects of strings and numbers. */
    static final class Json {

        private Json() {
        }

        static String object(Map<String, Object> fields) {
            StringBuilder json = new StringBuilder("  {");
            String separator = "";
            for (Map.Entry<String, Object> field : fields.entrySet()) {
                json.append(separator).append(string(field.getKey())).append(": ").append(value(field.getValue()));
                separator = ", ";
            }
            return json.append('}').toString();
        }

        private static String value(Object value) {
            return value == null ? "null" : value instanceof Number ? value.toString() : string(value.toString());
        }

        static String string(String s) {
            StringBuilder json = new StringBuilder("\"");
            for (char c : s.toCharArray()) {
                switch (c) {
                    case '"' -> json.append("\\\"");
                    case '\\' -> json.append("\\\\");
                    case '\n' -> json.append("\\n");
                    case '\r' -> json.append("\\r");
                    case '\t' -> json.append("\\t");
                    default -> json.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
                }
            }
            return json.append('"').toString();
        }
    }
}
