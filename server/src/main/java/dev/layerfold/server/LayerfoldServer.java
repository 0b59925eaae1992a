package dev.layerfold.server;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The Layerfold executable. Which roles it runs is configuration (see README, "Roles"). */
@SpringBootApplication(scanBasePackages = "dev.layerfold")
public class LayerfoldServer {
    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals(CheckCommand.NAME)) {
            System.exit(CheckCommand.run(args));
        }
        SpringApplication.run(LayerfoldServer.class, args);
    }
}
