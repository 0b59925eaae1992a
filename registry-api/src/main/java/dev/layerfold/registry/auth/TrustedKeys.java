package dev.layerfold.registry.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.AsymmetricJWK;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKMatcher;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.KeyType;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.JWSKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.Key;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The public keys tokens may be signed with: the built-in issuer's, those of key files (re-read when a
 * file changes, so a rotated key is trusted without a restart), and an external issuer's JWKS (whose
 * source fetches the set again when a token names a key it does not hold). Keys from PEM files have no
 * key id and are tried for any token of their type.
 */
final class TrustedKeys implements JWSKeySelector<SecurityContext> {

    static final Set<JWSAlgorithm> ALGORITHMS = Set.of(JWSAlgorithm.RS256, JWSAlgorithm.ES256);

    private record KeyFile(Path path, FileTime modified, List<JWK> keys) {
    }

    private final List<JWK> builtIn;
    private final Optional<JWKSource<SecurityContext>> remote;
    private volatile List<KeyFile> files;

    TrustedKeys(List<JWK> builtIn, List<Path> keyFiles, Optional<JWKSource<SecurityContext>> remote) {
        this.builtIn = List.copyOf(builtIn);
        this.remote = remote;
        this.files = keyFiles.stream().map(TrustedKeys::read).toList();
    }

    @Override
    public List<? extends Key> selectJWSKeys(JWSHeader header, SecurityContext context) throws KeySourceException {
        if (!ALGORITHMS.contains(header.getAlgorithm())) {
            return List.of();
        }
        KeyType type = KeyType.forAlgorithm(header.getAlgorithm());
        String keyId = header.getKeyID();
        List<JWK> candidates = new ArrayList<>();
        List<JWK> local = new ArrayList<>(builtIn);
        currentFiles().forEach(file -> local.addAll(file.keys()));
        for (JWK key : local) {
            if (key.getKeyType().equals(type) && (key.getKeyID() == null || keyId == null || keyId.equals(key.getKeyID()))) {
                candidates.add(key);
            }
        }
        if (remote.isPresent()) {
            candidates.addAll(remote.get().get(new JWKSelector(JWKMatcher.forJWSHeader(header)), context));
        }
        List<Key> keys = new ArrayList<>();
        for (JWK candidate : candidates) {
            try {
                keys.add(((AsymmetricJWK) candidate).toPublicKey());
            } catch (JOSEException | ClassCastException unusable) {
                // an octet key or a malformed entry in a key set: not one a token of ours is signed with
            }
        }
        return keys;
    }

    private List<KeyFile> currentFiles() {
        List<KeyFile> current = files;
        boolean changed = false;
        List<KeyFile> next = new ArrayList<>(current.size());
        for (KeyFile file : current) {
            try {
                if (!Files.getLastModifiedTime(file.path()).equals(file.modified())) {
                    next.add(read(file.path()));
                    changed = true;
                    continue;
                }
            } catch (IOException | RuntimeException e) {
                // a key file being replaced: its keys as last read stay trusted until the new one is readable
            }
            next.add(file);
        }
        if (changed) {
            files = List.copyOf(next);
        }
        return changed ? next : current;
    }

    private static KeyFile read(Path path) {
        try {
            return new KeyFile(path, Files.getLastModifiedTime(path), PemKeys.publicKeys(path));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the trusted key file " + path + " (layerfold.auth.key-files)", e);
        }
    }
}
