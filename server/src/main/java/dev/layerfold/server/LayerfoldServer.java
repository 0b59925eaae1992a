package dev.layerfold.server;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurationExcludeFilter;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.context.TypeExcludeFilter;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.FilterType;

/**
 * The Layerfold executable. Which roles it runs is configuration (see README, "Roles").
 *
 * <p>{@code @SpringBootApplication} spelled out, to keep the management port's own configuration
 * ({@link ManagementPlaneConfiguration}) out of the scan: scanned, its admin filter would guard the
 * registry port too.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@ComponentScan(basePackages = "dev.layerfold", excludeFilters = {
        @ComponentScan.Filter(type = FilterType.CUSTOM, classes = TypeExcludeFilter.class),
        @ComponentScan.Filter(type = FilterType.CUSTOM, classes = AutoConfigurationExcludeFilter.class),
        @ComponentScan.Filter(type = FilterType.ANNOTATION, classes = ManagementContextConfiguration.class)})
public class LayerfoldServer {
    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals(CheckCommand.NAME)) {
            System.exit(CheckCommand.run(args));
        }
        SpringApplication.run(LayerfoldServer.class, args);
    }
}
