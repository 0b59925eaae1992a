package dev.layerfold.server;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The Layerfold executable. Which roles it runs is configuration (see README, "Roles"). */
@SpringBootApplication(scanBasePackages = "dev.layerfold")
public class LayerfoldServer {
    public static void main(String[] args) {
        SpringApplication.run(LayerfoldServer.class, args);
    }
}
