package dev.layerfold.registry.auth;

import java.util.Optional;

/** The parts the configuration switched on: the rules, the users' sign-in, the built-in issuer, the token verifier. */
record AuthComponents(AuthProperties properties, AccessPolicy policy, Optional<PasswordSignIn> passwords,
                      Optional<TokenIssuer> issuer, Optional<TokenVerifier> tokens) {
}
