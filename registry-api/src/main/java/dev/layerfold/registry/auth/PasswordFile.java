package dev.layerfold.registry.auth;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import org.springframework.security.crypto.bcrypt.BCrypt;

/**
 * Users of an htpasswd file ({@code htpasswd -B}: {@code name:$2y$...} per line), re-read when the file
 * changes. bcrypt costs tens of milliseconds by design, so a password that checked out is remembered
 * for a few minutes (as a SHA-256 of name and password, never the password), and Basic credentials
 * sent with every request of a push cost one bcrypt, not one per request.
 */
final class PasswordFile {

    private static final Duration REMEMBER_VERIFIED = Duration.ofMinutes(5);

    private record Loaded(FileTime modified, Map<String, String> hashes) {
    }

    private final Path file;
    private final Cache<String, String> verified = Caffeine.newBuilder()
            .expireAfterWrite(REMEMBER_VERIFIED).maximumSize(10_000).build();
    private volatile Loaded loaded;

    PasswordFile(Path file) {
        this.file = file;
        this.loaded = load();
    }

    /** The user's name if the password is theirs. */
    Optional<String> verify(String user, String password) {
        Loaded current = current();
        String hash = current.hashes().get(user);
        if (hash == null) {
            return Optional.empty();
        }
        String key = fingerprint(user, password, hash);
        if (verified.getIfPresent(key) != null) {
            return Optional.of(user);
        }
        if (!BCrypt.checkpw(password, hash)) {
            return Optional.empty();
        }
        verified.put(key, user);
        return Optional.of(user);
    }

    private Loaded current() {
        Loaded current = loaded;
        try {
            if (!Files.getLastModifiedTime(file).equals(current.modified())) {
                current = load();
                loaded = current;
            }
        } catch (IOException e) {
            // A file being replaced may vanish for a moment; the users last read stay valid meanwhile.
        }
        return current;
    }

    private Loaded load() {
        try {
            FileTime modified = Files.getLastModifiedTime(file);
            Map<String, String> hashes = new HashMap<>();
            int lineNumber = 0;
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                lineNumber++;
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                int colon = line.indexOf(':');
                String hash = colon < 0 ? "" : line.substring(colon + 1).trim();
                if (colon <= 0 || !hash.matches("\\$2[aby]?\\$\\d\\d\\$.{53}")) {
                    throw new IllegalArgumentException(file + " line " + lineNumber
                            + " is not name:bcrypt-hash; make entries with htpasswd -B (other hash types are not accepted)");
                }
                String name = line.substring(0, colon);
                if (name.equals("anonymous") || name.equals("*")) {
                    throw new IllegalArgumentException(file + " line " + lineNumber + ": '" + name
                            + "' names callers in access rules and cannot be a user");
                }
                hashes.put(name, hash);
            }
            return new Loaded(modified, Map.copyOf(hashes));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the password file " + file + " (layerfold.auth.htpasswd)", e);
        }
    }

    /** The hash is part of the key, so a changed password forgets what was verified against the old one. */
    private static String fingerprint(String user, String password, String hash) {
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            for (String part : new String[] {user, password, hash}) {
                sha256.update(part.getBytes(StandardCharsets.UTF_8));
                sha256.update((byte) 0);
            }
            return HexFormat.of().formatHex(sha256.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
