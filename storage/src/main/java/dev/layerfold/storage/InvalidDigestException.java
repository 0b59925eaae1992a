package dev.layerfold.storage;

/** A digest string that is malformed or names an algorithm this registry does not verify. */
public class InvalidDigestException extends IllegalArgumentException {
    public InvalidDigestException(String digest, String reason) {
        super("invalid digest '" + digest + "': " + reason);
    }
}
