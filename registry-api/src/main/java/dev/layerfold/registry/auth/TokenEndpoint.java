package dev.layerfold.registry.auth;

import dev.layerfold.registry.error.ErrorCode;
import dev.layerfold.registry.error.RegistryException;
import dev.layerfold.storage.InvalidRepositoryNameException;
import dev.layerfold.storage.RepositoryName;
import jakarta.servlet.http.HttpServletRequest;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The built-in token service of the Docker token specification, for the users of the password file:
 * {@code GET /token?service=&scope=} with Basic credentials (or none, for what anonymous callers may
 * do), and the OAuth2 password grant ({@code POST /token}) some clients use instead. A token grants the
 * requested actions the rules allow, and nothing more; a scope the caller may not have is granted
 * without those actions, as the specification asks, so the registry then refuses the request itself.
 */
@RestController
class TokenEndpoint {

    private final AuthComponents auth;

    TokenEndpoint(AuthComponents auth) {
        this.auth = auth;
    }

    @GetMapping("/token")
    ResponseEntity<Map<String, Object>> token(@RequestParam Optional<String> service, @RequestParam MultiValueMap<String, String> parameters,
                                              @RequestHeader(name = "Authorization", required = false) String authorization,
                                              HttpServletRequest request) {
        Caller caller = authorization == null ? Caller.ANONYMOUS : basic(authorization, request.getRemoteAddr());
        return issue(service, scopes(parameters), caller, false);
    }

    @PostMapping(path = "/token", consumes = MediaType.APPLICATION_FORM_URLENCODED_VALUE)
    ResponseEntity<Map<String, Object>> oauth(@RequestParam("grant_type") String grantType, @RequestParam Optional<String> service,
                                              @RequestParam MultiValueMap<String, String> parameters,
                                              @RequestParam Optional<String> username, @RequestParam Optional<String> password,
                                              HttpServletRequest request) {
        if (!grantType.equals("password") || username.isEmpty() || password.isEmpty()) {
            throw RegistryException.of(ErrorCode.UNSUPPORTED, "this token endpoint takes grant_type=password with a username"
                    + " and password (refresh tokens are not issued)").withStatus(HttpStatus.BAD_REQUEST);
        }
        return issue(service, scopes(parameters), signIn(username.get(), password.get(), request.getRemoteAddr()), true);
    }

    /**
     * The raw {@code scope} values: a List-typed parameter would be split at commas, and the actions of
     * a scope ({@code pull,push}) are separated by commas.
     */
    private static List<String> scopes(MultiValueMap<String, String> parameters) {
        return parameters.getOrDefault("scope", List.of());
    }

    private ResponseEntity<Map<String, Object>> issue(Optional<String> service, List<String> scopes, Caller caller, boolean oauth) {
        TokenIssuer issuer = auth.issuer().orElseThrow(() -> RegistryException.of(ErrorCode.UNSUPPORTED,
                "this registry issues no tokens (layerfold.auth.mode=token with layerfold.auth.htpasswd turns it on)")
                .withStatus(HttpStatus.NOT_FOUND));
        if (service.isPresent() && !service.get().equals(auth.properties().service())) {
            throw RegistryException.of(ErrorCode.DENIED, "tokens here are issued for service '" + auth.properties().service()
                    + "', not '" + service.get() + "'").withStatus(HttpStatus.BAD_REQUEST);
        }
        List<Scope> granted = new ArrayList<>();
        for (Scope requested : Scope.parseAll(scopes)) {
            grant(caller, requested).ifPresent(granted::add);
        }
        TokenIssuer.Issued issued = issuer.issue(caller.name(), granted);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put(oauth ? "access_token" : "token", issued.token());
        if (!oauth) {
            body.put("access_token", issued.token());
        }
        body.put("expires_in", issued.lifetime().toSeconds());
        body.put("issued_at", DateTimeFormatter.ISO_INSTANT.format(issued.issuedAt()));
        return ResponseEntity.ok().header("Cache-Control", "no-store").body(body);
    }

    private Optional<Scope> grant(Caller caller, Scope requested) {
        if (requested.equals(Scope.CATALOG) || requested.type().equals(Scope.CATALOG.type())) {
            return caller.signedIn() && requested.name().equals(Scope.CATALOG.name()) ? Optional.of(Scope.CATALOG) : Optional.empty();
        }
        if (!requested.type().equals(Scope.REPOSITORY)) {
            return Optional.empty();
        }
        RepositoryName repository;
        try {
            repository = RepositoryName.of(requested.name());
        } catch (InvalidRepositoryNameException e) {
            return Optional.empty();
        }
        Set<Action> actions = EnumSet.noneOf(Action.class);
        actions.addAll(requested.repositoryActions());
        actions.retainAll(auth.policy().allowed(caller, repository));
        return Optional.of(Scope.repository(repository.value(), actions));
    }

    private Caller basic(String authorization, String address) {
        BasicCredentials credentials = BasicCredentials.parse(authorization).orElseThrow(TokenEndpoint::wrongCredentials);
        return signIn(credentials.user(), credentials.password(), address);
    }

    private Caller signIn(String user, String password, String address) {
        try {
            return auth.passwords().flatMap(passwords -> passwords.signIn(user, password, address))
                    .orElseThrow(TokenEndpoint::wrongCredentials);
        } catch (PasswordSignIn.TooManyFailures e) {
            throw tooMany(e);
        }
    }

    /** 429 with {@code Retry-After}: the same answer whether or not the password would have been right. */
    static RegistryException tooMany(PasswordSignIn.TooManyFailures e) {
        return RegistryException.of(ErrorCode.TOOMANYREQUESTS, e.getMessage()).withHeader("Retry-After", e.retryAfterSeconds());
    }

    private static RegistryException wrongCredentials() {
        return RegistryException.of(ErrorCode.UNAUTHORIZED, "the user name or password is wrong")
                .withHeader("WWW-Authenticate", "Basic realm=\"layerfold\"");
    }
}
