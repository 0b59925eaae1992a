package dev.layerfold.registry.api;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.tomcat.TomcatConnectorCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.PropertySource;

/**
 * Makes registry-api a library: an application that component-scans {@code dev.layerfold} and provides
 * a {@code BlobStore} and a {@code MetadataStore} bean serves the distribution API. The bundled
 * defaults (lowest precedence, so the application's own properties win) keep the servlet stack
 * from touching request bodies: no size cap on uploads, no form or multipart parsing of blobs.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(RegistryApiProperties.class)
@PropertySource("classpath:dev/layerfold/registry/api/registry-api-defaults.properties")
public class RegistryApiConfiguration {

    /**
     * Lets {@code %2F} through to {@link RoutePath}, which refuses it in a repository name with
     * NAME_INVALID; Tomcat's own refusal is an HTML page clients cannot parse.
     */
    @Bean
    TomcatConnectorCustomizer passEncodedSlashesToTheRouter() {
        return connector -> connector.setEncodedSolidusHandling("passthrough");
    }
}
