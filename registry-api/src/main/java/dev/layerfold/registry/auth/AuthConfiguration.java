package dev.layerfold.registry.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.SecurityContext;
import dev.layerfold.registry.api.AccessGuard;
import java.net.MalformedURLException;
import io.github.bucket4j.TimeMeter;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Builds what {@code layerfold.auth.*} asks for, and says at start who may use the registry. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(AuthProperties.class)
class AuthConfiguration {

    private static final Logger log = LoggerFactory.getLogger(AuthConfiguration.class);

    @Bean
    AuthComponents authComponents(AuthProperties properties) {
        Clock clock = Clock.systemUTC();
        AccessPolicy policy = new AccessPolicy(properties.access(), properties.groups());
        AuthProperties.FailedSignInLimits limits = properties.failedSignIns();
        FailedSignIns failures = new FailedSignIns(new FailedSignIns.Limits(limits.perUser(), limits.perAddress(), limits.period()),
                TimeMeter.SYSTEM_NANOTIME);
        Optional<PasswordSignIn> passwords = properties.passwordFile()
                .map(file -> new PasswordSignIn(new PasswordFile(file), policy, failures));
        if (properties.mode() != AuthProperties.Mode.TOKEN) {
            return new AuthComponents(properties, policy, passwords, Optional.empty(), Optional.empty());
        }
        Optional<TokenIssuer> issuer = passwords.map(users -> new TokenIssuer(signingKey(properties), properties.issuer(),
                properties.service(), properties.tokenLifetime(), clock));
        Optional<JWKSource<SecurityContext>> remote = properties.jwks().map(url -> {
            try {
                return JWKSourceBuilder.<SecurityContext>create(url.toURL()).retrying(true).build();
            } catch (MalformedURLException e) {
                throw new IllegalArgumentException("layerfold.auth.jwks-url is not a URL: " + url, e);
            }
        });
        TrustedKeys keys = new TrustedKeys(issuer.map(TokenIssuer::publicKey).stream().toList(), properties.keyFiles(), remote);
        TokenVerifier tokens = new TokenVerifier(keys, properties.issuer(), properties.service(), clock);
        return new AuthComponents(properties, policy, passwords, issuer, Optional.of(tokens));
    }

    @Bean
    AdminAuthorization adminAuthorization(AuthComponents auth) {
        return new AdminAuthorization(auth);
    }

    @Bean
    AccessGuard accessGuard(AuthComponents auth) {
        AuthProperties properties = auth.properties();
        AuditLog audit = new AuditLog();
        if (properties.mode() == AuthProperties.Mode.NONE) {
            log.warn("The registry is OPEN: anyone who reaches it may pull, push and delete. Set layerfold.auth.mode=token"
                    + " and layerfold.auth.htpasswd (a file made with htpasswd -B) to require sign-in.");
            return new OpenGuard(audit);
        }
        log.info("Sign-in required ({} mode, service '{}'): users from {}, tokens trusted from {}; {} access rule(s){}",
                properties.mode().name().toLowerCase(), properties.service(),
                properties.passwordFile().map(Object::toString).orElse("no password file"),
                describeTrust(auth, properties), properties.access().size(),
                properties.access().isEmpty() ? ", so every signed-in user may do everything" : "");
        return new EnforcingGuard(auth, new Challenge(properties), audit);
    }

    private static String describeTrust(AuthComponents auth, AuthProperties properties) {
        List<String> sources = new java.util.ArrayList<>();
        auth.issuer().ifPresent(issuer -> sources.add("the built-in /token endpoint"));
        properties.jwks().ifPresent(url -> sources.add(url.toString()));
        properties.keyFiles().forEach(file -> sources.add(file.toString()));
        return sources.isEmpty() ? "nowhere (Basic only)" : String.join(", ", sources);
    }

    private static JWK signingKey(AuthProperties properties) {
        if (properties.signingKeyFile().isPresent()) {
            return PemKeys.privateKey(properties.signingKeyFile().get());
        }
        log.info("No layerfold.auth.signing-key: tokens are signed with a key made at start, valid only in this process"
                + " until it restarts; give every node the same key file to share tokens between them");
        try {
            return new ECKeyGenerator(Curve.P_256).keyIDFromThumbprint(true).generate();
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot make an EC P-256 key", e);
        }
    }
}
