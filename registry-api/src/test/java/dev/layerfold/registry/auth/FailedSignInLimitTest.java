package dev.layerfold.registry.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.registry.RegistryHttpTest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.springframework.security.crypto.bcrypt.BCrypt;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Password guessing is slowed per user and per client address, with 429 and {@code Retry-After}, at
 * the API and the token endpoint alike, and a client that signed in is not slowed by guesses from
 * elsewhere. Clients are told apart by their loopback source address (127.0.0.x), so requests go out
 * on sockets bound to one.
 */
class FailedSignInLimitTest extends RegistryHttpTest {

    static final Path CONFIG_DIRECTORY;

    static {
        try {
            CONFIG_DIRECTORY = Files.createTempDirectory("layerfold-sign-in-limit");
            Files.writeString(CONFIG_DIRECTORY.resolve("htpasswd"), String.join("\n",
                    "dora:" + BCrypt.hashpw("dora-secret", BCrypt.gensalt(4)),
                    "eve:" + BCrypt.hashpw("eve-secret", BCrypt.gensalt(4)),
                    "finn:" + BCrypt.hashpw("finn-secret", BCrypt.gensalt(4))) + "\n");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @DynamicPropertySource
    static void auth(DynamicPropertyRegistry properties) {
        properties.add("layerfold.auth.mode", () -> "token");
        properties.add("layerfold.auth.htpasswd", () -> CONFIG_DIRECTORY.resolve("htpasswd").toString());
        properties.add("layerfold.auth.failed-sign-ins.per-user", () -> "3");
        properties.add("layerfold.auth.failed-sign-ins.per-address", () -> "6");
        properties.add("layerfold.auth.failed-sign-ins.period", () -> "10m");
    }

    @Test
    void guessesAtAUsersPasswordAreAnswered429OnceItsFailuresAreSpent() throws Exception {
        for (int i = 0; i < 3; i++) {
            assertThat(get("127.0.0.11", "/v2/", "dora", "guess-" + i)).startsWith("HTTP/1.1 401");
        }

        String limited = get("127.0.0.12", "/v2/", "dora", "guess-4");
        assertThat(limited).startsWith("HTTP/1.1 429").containsIgnoringCase("Retry-After: ").contains("TOOMANYREQUESTS");
        assertThat(get("127.0.0.12", "/token?service=layerfold", "dora", "dora-secret"))
                .as("even the right password, from an address she never signed in from, while guessing goes on")
                .startsWith("HTTP/1.1 429");
    }

    @Test
    void aClientThatSignedInIsNotSlowedByGuessesAtItsPasswordFromElsewhere() throws Exception {
        assertThat(get("127.0.0.21", "/v2/", "eve", "eve-secret")).startsWith("HTTP/1.1 200");
        for (int i = 0; i < 5; i++) {
            get("127.0.0.22", "/token?service=layerfold", "eve", "guess-" + i);
        }

        assertThat(get("127.0.0.21", "/v2/", "eve", "eve-secret")).startsWith("HTTP/1.1 200");
        assertThat(get("127.0.0.21", "/token?service=layerfold", "eve", "eve-secret")).startsWith("HTTP/1.1 200");
    }

    @Test
    void anAddressThatGuessesManyUsersIsHeldBackForEveryUser() throws Exception {
        for (int i = 0; i < 6; i++) {
            get("127.0.0.31", "/v2/", "nobody-" + i, "guess");
        }

        assertThat(get("127.0.0.31", "/v2/", "finn", "finn-secret")).startsWith("HTTP/1.1 429");
        assertThat(get("127.0.0.32", "/v2/", "finn", "finn-secret")).startsWith("HTTP/1.1 200");
    }

    /** The status line and headers of a GET with Basic credentials, sent from {@code sourceAddress}. */
    private String get(String sourceAddress, String path, String user, String password) throws IOException {
        try (Socket socket = new Socket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName(sourceAddress), 0));
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5_000);
            socket.setSoTimeout(10_000);
            String credentials = Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Basic " + credentials
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
