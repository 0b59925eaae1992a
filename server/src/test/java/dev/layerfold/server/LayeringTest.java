package dev.layerfold.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * The module graph as the poms and the sources declare it: every module depends only on modules
 * below it in {@link #LAYERS}, the registry reaches the codec only through its API packages, and no
 * module has a package cycle.
 * Reads the poms and the Java sources of the whole tree, so it needs no build of the other modules.
 */
class LayeringTest {

    /** Bottom to top: a module may depend on (and reference classes of) those before it only. */
    private static final List<String> LAYERS = List.of(
            "layerfold-codec",            // the exact layer codec, nothing of the registry
            "layerfold-storage",          // ports and their stores
            "layerfold-dedup-pipeline",   // dedup pipeline and file store, over codec and storage
            "layerfold-gc",               // reclaims blobs, manifests and packs
            "layerfold-restore-service",  // rebuilds deduplicated layers on pull
            "layerfold-registry-api",     // the OCI distribution API
            "layerfold-predictor",        // pre-warms what pulls will ask for
            "layerfold-server",           // the Spring Boot application that wires them
            "layerfold-trace",            // tools and test suites above the product
            "layerfold-e2e",
            "layerfold-benchmark");

    /** The codec packages other modules' main code may use: split, rebuild, recipe, identify, and the exceptions and sinks (io). */
    private static final Set<String> CODEC_API = Set.of(
            "dev.layerfold.dedup.codec", "dev.layerfold.dedup.codec.recipe", "dev.layerfold.dedup.codec.identify",
            "dev.layerfold.dedup.codec.io");

    /**
     * Internal codec types main code outside it still reaches: the pack reader parses the zstd frames
     * of its own packs with the codec's frame header parser rather than keep a second one.
     */
    private static final Set<String> CODEC_API_EXCEPTIONS = Set.of("dev.layerfold.dedup.codec.container.ZstdFrameHeader");

    /** Modules whose code only measures or drives the product, so they may reach codec internals. */
    private static final Set<String> TOOLS = Set.of("layerfold-trace", "layerfold-e2e", "layerfold-benchmark");

    private static final Pattern IMPORT = Pattern.compile("^import\\s+(?:static\\s+)?([\\w.]+)(?:\\.\\*)?\\s*;", Pattern.MULTILINE);
    private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
    /** Fully qualified names written in code or doc comments, outside import and package lines. */
    private static final Pattern QUALIFIED = Pattern.compile("\\bdev\\.layerfold(?:\\.\\w+)+");

    private record Module(String artifactId, Path dir, Map<String, String> dependencies) {
    }

    private record Source(Module module, String pkg, String text, boolean main) {
    }

    private static final Map<String, Module> MODULES = new LinkedHashMap<>();
    /** Top-level type (fully qualified) to the module whose main or test sources declare it. */
    private static final Map<String, Module> OWNERS = new HashMap<>();
    private static final List<Source> SOURCES = new ArrayList<>();

    @BeforeAll
    static void readTree() throws Exception {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("dedup-core/pom.xml"))) {
            dir = dir.getParent();
        }
        assertThat(dir).as("the project root above " + Path.of("").toAbsolutePath()).isNotNull();
        readModules(dir);
        for (Module module : MODULES.values()) {
            for (String kind : List.of("main", "test")) {
                Path root = module.dir().resolve("src").resolve(kind).resolve("java");
                if (!Files.isDirectory(root)) {
                    continue;
                }
                try (Stream<Path> files = Files.walk(root)) {
                    for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                        String text = Files.readString(file);
                        Matcher pkg = PACKAGE.matcher(text);
                        if (!pkg.find()) {
                            continue;
                        }
                        String name = file.getFileName().toString().replace(".java", "");
                        // Main sources win over a test class of the same name (split packages in tests).
                        if (kind.equals("main") || !OWNERS.containsKey(pkg.group(1) + "." + name)) {
                            OWNERS.put(pkg.group(1) + "." + name, module);
                        }
                        SOURCES.add(new Source(module, pkg.group(1), text, kind.equals("main")));
                    }
                }
            }
        }
    }

    @Test
    void everyModuleHasItsPlaceInTheLayers() {
        assertThat(MODULES.keySet()).as("modules the poms list; give a new one its place in LAYERS")
                .containsExactlyInAnyOrderElementsOf(LAYERS);
    }

    @Test
    void modulesDependOnlyOnModulesBelowThem() {
        List<String> upward = new ArrayList<>();
        for (Module module : MODULES.values()) {
            module.dependencies().forEach((dependency, scope) -> {
                if (LAYERS.indexOf(dependency) >= LAYERS.indexOf(module.artifactId())) {
                    upward.add(module.artifactId() + " -> " + dependency + " (" + scope + ")");
                }
            });
        }
        assertThat(upward).as("pom dependencies that point up or sideways").isEmpty();
        assertThat(MODULES.get("layerfold-codec").dependencies()).as("the codec depends on nothing of the registry").isEmpty();
    }

    @Test
    void sourcesReferenceOnlyModulesBelowThem() {
        Set<String> upward = new TreeSet<>();
        for (Source source : SOURCES) {
            for (String name : references(source)) {
                Module owner = owner(name);
                if (owner != null && owner != source.module()
                        && LAYERS.indexOf(owner.artifactId()) > LAYERS.indexOf(source.module().artifactId())) {
                    upward.add(source.module().artifactId() + " " + source.pkg() + " -> " + name + " (" + owner.artifactId() + ")");
                }
            }
        }
        assertThat(upward).as("references to classes of modules above").isEmpty();
    }

    @Test
    void theRegistryUsesOnlyTheCodecsApi() {
        Set<String> internal = new TreeSet<>();
        for (Source source : SOURCES) {
            String module = source.module().artifactId();
            if (!source.main() || module.equals("layerfold-codec") || TOOLS.contains(module)) {
                continue;
            }
            for (String name : references(source)) {
                Module owner = owner(name);
                String type = topLevel(name);
                if (owner != null && owner.artifactId().equals("layerfold-codec")
                        && !CODEC_API.contains(packageOf(type)) && !CODEC_API_EXCEPTIONS.contains(type)) {
                    internal.add(module + " " + source.pkg() + " -> " + type);
                }
            }
        }
        assertThat(internal).as("codec internals used by the registry's main code").isEmpty();
    }

    @Test
    void noPackageCycles() {
        Map<String, Set<String>> edges = new HashMap<>();
        Map<String, Module> packages = new HashMap<>();
        for (Source source : SOURCES) {
            if (!source.main()) {
                continue;
            }
            packages.put(source.pkg(), source.module());
            Set<String> out = edges.computeIfAbsent(source.pkg(), p -> new TreeSet<>());
            for (String name : references(source)) {
                if (owner(name) == source.module()) {
                    String pkg = packageOf(topLevel(name));
                    if (!pkg.equals(source.pkg())) {
                        out.add(pkg);
                    }
                }
            }
        }
        List<Set<String>> cycles = new Cycles(edges).find();
        assertThat(cycles).as("package cycles (each a set of packages that reach each other)").isEmpty();
    }

    /** The finder the test above relies on: a cycle and what merely reaches it told apart. */
    @Test
    void theCycleFinderFindsCycles() {
        Map<String, Set<String>> edges = Map.of("a", Set.of("b"), "b", Set.of("c"), "c", Set.of("a"), "d", Set.of("a", "e"), "e", Set.of());
        assertThat(new Cycles(edges).find()).containsExactly(Set.of("a", "b", "c"));
        assertThat(new Cycles(Map.of("a", Set.of("b"), "b", Set.of())).find()).isEmpty();
    }

    /** Classes a source names: its imports and the fully qualified names in its text. */
    private static Set<String> references(Source source) {
        Set<String> names = new LinkedHashSet<>();
        Matcher imports = IMPORT.matcher(source.text());
        while (imports.find()) {
            names.add(imports.group(1));
        }
        String body = source.text().replaceAll("(?m)^(import|package)\\s.*$", "");
        Matcher qualified = QUALIFIED.matcher(body);
        while (qualified.find()) {
            names.add(qualified.group());
        }
        return names;
    }

    /** The module declaring {@code name} (a type, a nested type or a static member), or null for a package. */
    private static Module owner(String name) {
        String type = topLevel(name);
        return type == null ? null : OWNERS.get(type);
    }

    /** The longest prefix of {@code name} that is a top-level type of the tree, or null. */
    private static String topLevel(String name) {
        for (String candidate = name; candidate.contains("."); candidate = candidate.substring(0, candidate.lastIndexOf('.'))) {
            if (OWNERS.containsKey(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    private static String packageOf(String type) {
        return type.substring(0, type.lastIndexOf('.'));
    }

    private static void readModules(Path dir) throws Exception {
        Document pom = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(dir.resolve("pom.xml").toFile());
        Element project = pom.getDocumentElement();
        String artifactId = child(project, "artifactId");
        Map<String, String> dependencies = new LinkedHashMap<>();
        Element deps = childElement(project, "dependencies");
        if (deps != null) {
            for (Node node = deps.getFirstChild(); node != null; node = node.getNextSibling()) {
                if (node instanceof Element dependency && "dev.layerfold".equals(child(dependency, "groupId"))) {
                    String scope = child(dependency, "scope");
                    dependencies.merge(child(dependency, "artifactId"), scope == null ? "compile" : scope, (a, b) -> a + "," + b);
                }
            }
        }
        if (!"pom".equals(child(project, "packaging"))) {
            MODULES.put(artifactId, new Module(artifactId, dir, dependencies));
        }
        Element modules = childElement(project, "modules");
        if (modules != null) {
            for (Node node = modules.getFirstChild(); node != null; node = node.getNextSibling()) {
                if (node instanceof Element module) {
                    readModules(dir.resolve(module.getTextContent().trim()));
                }
            }
        }
    }

    private static Element childElement(Element parent, String name) {
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element element && element.getTagName().equals(name)) {
                return element;
            }
        }
        return null;
    }

    private static String child(Element parent, String name) {
        Element element = childElement(parent, name);
        return element == null ? null : element.getTextContent().trim();
    }

    /** Strongly connected components of more than one package (Tarjan). */
    private static final class Cycles {
        private final Map<String, Set<String>> edges;
        private final Map<String, Integer> index = new HashMap<>();
        private final Map<String, Integer> low = new HashMap<>();
        private final List<String> stack = new ArrayList<>();
        private final Set<String> onStack = new LinkedHashSet<>();
        private final List<Set<String>> found = new ArrayList<>();

        Cycles(Map<String, Set<String>> edges) {
            this.edges = edges;
        }

        List<Set<String>> find() {
            for (String node : new TreeSet<>(edges.keySet())) {
                if (!index.containsKey(node)) {
                    visit(node);
                }
            }
            return found;
        }

        private void visit(String node) {
            index.put(node, index.size());
            low.put(node, index.get(node));
            stack.add(node);
            onStack.add(node);
            for (String next : edges.getOrDefault(node, Set.of())) {
                if (!index.containsKey(next)) {
                    visit(next);
                    low.put(node, Math.min(low.get(node), low.get(next)));
                } else if (onStack.contains(next)) {
                    low.put(node, Math.min(low.get(node), index.get(next)));
                }
            }
            if (low.get(node).equals(index.get(node))) {
                Set<String> component = new TreeSet<>();
                String member;
                do {
                    member = stack.removeLast();
                    onStack.remove(member);
                    component.add(member);
                } while (!member.equals(node));
                if (component.size() > 1) {
                    found.add(component);
                }
            }
        }
    }
}
