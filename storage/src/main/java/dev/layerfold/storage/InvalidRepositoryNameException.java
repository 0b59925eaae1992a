package dev.layerfold.storage;

/** A repository name outside the distribution spec's grammar. */
public class InvalidRepositoryNameException extends IllegalArgumentException {
    public InvalidRepositoryNameException(String name) {
        super("invalid repository name '" + name + "': use lower-case path components of [a-z0-9] joined by"
                + " '.', '_', '__' or '-', separated by '/', at most " + RepositoryName.MAX_LENGTH + " characters");
    }
}
