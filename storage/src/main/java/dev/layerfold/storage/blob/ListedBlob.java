package dev.layerfold.storage.blob;

import dev.layerfold.storage.Digest;
import java.time.Instant;

/** A published blob as a listing of the store finds it: its digest, and when its bytes were last written. */
public record ListedBlob(Digest digest, Instant lastModified) {
}
