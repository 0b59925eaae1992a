package dev.layerfold.registry.auth;

import dev.layerfold.registry.api.Access;
import dev.layerfold.registry.api.AccessGuard;
import dev.layerfold.registry.api.RegistryRequest;
import dev.layerfold.registry.api.Route;
import jakarta.servlet.http.HttpServletResponse;

/** {@code layerfold.auth.mode=none}: everyone may do everything; changes are still audited. */
final class OpenGuard implements AccessGuard {

    private final AuditLog audit;

    OpenGuard(AuditLog audit) {
        this.audit = audit;
    }

    @Override
    public Access admit(Route route, RegistryRequest request) {
        return Access.EVERYONE;
    }

    @Override
    public void served(Route route, RegistryRequest request, HttpServletResponse response, Access access) {
        audit.served(route, request, response, access);
    }
}
