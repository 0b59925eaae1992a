package dev.layerfold.server;

import dev.layerfold.gc.CheckReport;
import dev.layerfold.gc.RegistryCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code java -jar layerfold.jar check [--repair] [--layerfold.*=…]}: checks the registry the
 * configuration names (the same properties and environment as the server) without serving it, prints
 * the report as JSON, and exits 1 if it found problems it did not repair.
 */
final class CheckCommand {

    static final String NAME = "check";

    private CheckCommand() {
    }

    static int run(String[] args) throws Exception {
        List<String> rest = Arrays.asList(args).subList(1, args.length);
        boolean repair = rest.contains("--repair");
        SpringApplication application = new SpringApplication(LayerfoldServer.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        // A check serves nothing and starts no background work of its own; its scratch directory is its
        // own, since the server's is emptied by whoever starts on it.
        Path scratch = Files.createTempDirectory("layerfold-check");
        application.setDefaultProperties(Map.of("layerfold.dedup.workers", "0", "layerfold.gc.interval", "0",
                "layerfold.dedup.scratch", scratch.toString()));
        try (ConfigurableApplicationContext context = application.run(rest.stream()
                .filter(arg -> !arg.equals("--repair")).toArray(String[]::new))) {
            CheckReport report = context.getBean(RegistryCheck.class).run(repair);
            System.out.println(context.getBean(JsonMapper.class).writerWithDefaultPrettyPrinter()
                    .writeValueAsString(GcEndpoint.describe(report)));
            return report.problemCount() > report.repaired() ? 1 : 0;
        }
    }
}
