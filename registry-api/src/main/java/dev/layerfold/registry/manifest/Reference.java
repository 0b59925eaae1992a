package dev.layerfold.registry.manifest;

import dev.layerfold.registry.error.ErrorCode;
import dev.layerfold.registry.error.RegistryException;
import dev.layerfold.registry.tag.Tags;
import dev.layerfold.storage.Digest;

/** The {@code <reference>} of a manifest URL: a tag or a digest (digests always contain a ':'). */
sealed interface Reference {

    record Tag(String name) implements Reference {
        @Override
        public String toString() {
            return name;
        }
    }

    record ByDigest(Digest digest) implements Reference {
        @Override
        public String toString() {
            return digest.toString();
        }
    }

    /** Parses a reference; a malformed digest is DIGEST_INVALID, a malformed tag MANIFEST_INVALID. */
    static Reference parse(String text) {
        if (text.indexOf(':') >= 0) {
            return new ByDigest(Digest.parse(text));
        }
        return new Tag(requireTag(text));
    }

    static String requireTag(String tag) {
        if (!Tags.isValid(tag)) {
            throw RegistryException.of(ErrorCode.MANIFEST_INVALID, "invalid tag '" + abbreviate(tag) + "': " + Tags.RULE);
        }
        return tag;
    }

    private static String abbreviate(String text) {
        return text.length() <= 140 ? text : text.substring(0, 140) + "...";
    }
}
