package dev.layerfold.registry.notification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NotificationPropertiesTest {

    private static NotificationProperties.Endpoint endpoint(String name, String url, List<String> ignoredActions) {
        return new NotificationProperties.Endpoint(name, URI.create(url), Map.of("Authorization", "Bearer header-secret"),
                Duration.ofSeconds(5), 2, Duration.ofSeconds(1), Duration.ofSeconds(30), List.of(), ignoredActions,
                "hmac-secret", 100);
    }

    @Test
    void retriesWaitTheBackoffUpToTheThresholdThenDoubleUpToTheMaximum() {
        NotificationProperties.Endpoint endpoint = endpoint("ci", "https://ci.example.com/hook", List.of());
        assertThat(List.of(1, 2, 3, 4, 5, 6, 7, 100).stream().map(endpoint::retryAfter).map(Duration::toSeconds))
                .containsExactly(1L, 1L, 2L, 4L, 8L, 16L, 30L, 30L);
    }

    @Test
    void printedEndpointsShowNoSecretNoHeaderValueAndNoCredentialsInTheUrl() {
        String printed = endpoint("ci", "https://user:url-secret@ci.example.com/hook", List.of()).toString();
        assertThat(printed).contains("ci.example.com/hook", "Authorization", "secret=(set)")
                .doesNotContain("hmac-secret", "header-secret", "url-secret");
    }

    @Test
    void namesUrlsAndActionsAreCheckedWhenTheConfigurationIsRead() {
        assertThatThrownBy(() -> endpoint("Bad Name", "https://ci.example.com/", List.of())).hasMessageContaining("name");
        assertThatThrownBy(() -> endpoint("ci", "ftp://ci.example.com/", List.of())).hasMessageContaining("http or https");
        assertThatThrownBy(() -> endpoint("ci", "https://ci.example.com/", List.of("pulls"))).hasMessageContaining("pulls");
        NotificationProperties.Endpoint one = endpoint("ci", "https://ci.example.com/", List.of("PULL"));
        assertThat(one.ignoredActions()).containsExactly("pull");
        assertThatThrownBy(() -> new NotificationProperties(List.of(one, one), Duration.ofSeconds(1), 100, 100))
                .hasMessageContaining("another endpoint");
    }
}
