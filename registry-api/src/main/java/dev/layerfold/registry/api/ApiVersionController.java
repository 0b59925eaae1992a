package dev.layerfold.registry.api;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /v2/}: tells clients this is a registry speaking the distribution API. */
@RestController
class ApiVersionController {

    @GetMapping({"/v2", "/v2/"})
    ResponseEntity<String> apiVersion() {
        return ResponseEntity.ok()
                .header("Docker-Distribution-API-Version", "registry/2.0")
                .header("Content-Type", "application/json")
                .body("{}");
    }
}
