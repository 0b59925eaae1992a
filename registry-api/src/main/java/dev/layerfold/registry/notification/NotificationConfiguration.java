package dev.layerfold.registry.notification;

import dev.layerfold.storage.metadata.MetadataStore;
import dev.layerfold.storage.notification.NotificationStorage;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.UUID;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.json.JsonMapper;

/** Notifications: the API's events go to the metadata store's outbox, and from there to the configured endpoints. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(NotificationProperties.class)
public class NotificationConfiguration {

    /** With no endpoint configured, one that does nothing: no thread, no outbox, events ignored at once. */
    @Bean(destroyMethod = "close")
    Notifications notifications(NotificationProperties properties, MetadataStore metadata, JsonMapper json,
                                ObjectProvider<MeterRegistry> registry) {
        if (properties.endpoints().isEmpty()) {
            return Notifications.none();
        }
        if (!(metadata instanceof NotificationStorage storage)) {
            throw new IllegalStateException("metadata backend " + metadata.getClass().getSimpleName()
                    + " keeps no notification outbox; remove layerfold.notifications.endpoints");
        }
        return new Notifications(properties, storage.notificationOutbox(), json,
                registry.getIfAvailable(SimpleMeterRegistry::new), UUID.randomUUID().toString(), hostName());
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }
}
