package dev.layerfold.e2e.auth;

import dev.layerfold.e2e.distributed.Backends;
import java.util.Map;

/** The authorization matrix on the embedded backends (files and SQLite). */
class AuthorizationMatrixEmbeddedTest extends AuthorizationMatrixContract {

    @Override
    Map<String, String> backend() {
        return Backends.embedded();
    }
}
