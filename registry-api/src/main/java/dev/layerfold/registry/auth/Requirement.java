package dev.layerfold.registry.auth;

import dev.layerfold.registry.api.Route;
import dev.layerfold.storage.RepositoryName;

/** What a request needs the caller to be allowed: derived from the endpoint and the method alone. */
sealed interface Requirement {

    /** {@code /v2/}: any signed-in caller (the probe clients send to learn how to sign in). */
    record SignedIn() implements Requirement {
    }

    /** {@code /v2/_catalog}: the {@code registry:catalog:*} scope; the list is then filtered by pull access. */
    record Catalog() implements Requirement {
    }

    record OnRepository(RepositoryName repository, Action action) implements Requirement {
    }

    static Requirement of(Route route, String method) {
        return switch (route) {
            case Route.Base base -> new SignedIn();
            case Route.Catalog catalog -> new Catalog();
            case Route.Blob blob -> new OnRepository(blob.name(), method.equals("DELETE") ? Action.DELETE : Action.PULL);
            case Route.UploadStart start -> new OnRepository(start.name(), Action.PUSH);
            case Route.Upload upload -> new OnRepository(upload.name(), Action.PUSH);
            case Route.Manifest manifest -> new OnRepository(manifest.name(), switch (method) {
                case "PUT" -> Action.PUSH;
                case "DELETE" -> Action.DELETE;
                default -> Action.PULL;
            });
            case Route.TagList tags -> new OnRepository(tags.name(), Action.PULL);
            case Route.Referrers referrers -> new OnRepository(referrers.name(), Action.PULL);
        };
    }
}
