package dev.layerfold.trace;

import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code bin/layerfold-trace generate [--flag=value...] --out=trace.json} writes a synthetic trace (flags:
 * the components of {@link GeneratorSettings}); {@code bin/layerfold-trace replay --registry=URL
 * [--speed=1] [--sizeScale=1] [--concurrency=64] trace.json} plays a trace in the IBM Cloud registry
 * format against a running registry and prints what it did.
 */
public final class TraceTool {

    private TraceTool() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0 || !List.of("generate", "replay").contains(args[0])) {
            usage(System.err);
            System.exit(2);
        }
        Map<String, String> flags = new HashMap<>();
        List<String> files = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            if (args[i].startsWith("--") && args[i].contains("=")) {
                flags.put(args[i].substring(2, args[i].indexOf('=')), args[i].substring(args[i].indexOf('=') + 1));
            } else {
                files.add(args[i]);
            }
        }
        if (args[0].equals("generate")) {
            String out = flags.remove("out");
            if (out == null) {
                throw new IllegalArgumentException("generate needs --out=FILE");
            }
            SyntheticTrace trace = TraceGenerator.generate(GeneratorSettings.DEFAULTS.with(flags));
            TraceFile.write(trace.records(), Path.of(out));
            long manifestGets = trace.records().stream().filter(r -> r.isGet()
                    && r.target().map(TraceRecord.Target::manifest).orElse(false)).count();
            long gets = trace.records().stream().filter(TraceRecord::isGet).count();
            System.out.printf("%d requests (%.0f%% manifest GETs, GET:PUT %.1f:1), %d images, %.1f GB of distinct layers%n",
                    trace.records().size(), 100.0 * manifestGets / trace.records().size(),
                    (double) gets / (trace.records().size() - gets), trace.images().size(), trace.uniqueBytes() / 1e9);
        } else {
            if (files.size() != 1 || !flags.containsKey("registry")) {
                throw new IllegalArgumentException("replay needs --registry=URL and one trace file");
            }
            Replayer.Options options = new Replayer.Options(URI.create(flags.get("registry")),
                    Double.parseDouble(flags.getOrDefault("speed", "1")),
                    Double.parseDouble(flags.getOrDefault("sizeScale", "1")),
                    Integer.parseInt(flags.getOrDefault("concurrency", "64")));
            new Replayer(options).replay(TraceFile.read(Path.of(files.getFirst()))).print(System.out);
        }
    }

    private static void usage(PrintStream out) {
        out.println("usage: layerfold-trace generate [--<setting>=<value>...] --out=FILE");
        out.println("       layerfold-trace replay --registry=URL [--speed=1] [--sizeScale=1] [--concurrency=64] FILE");
    }
}
