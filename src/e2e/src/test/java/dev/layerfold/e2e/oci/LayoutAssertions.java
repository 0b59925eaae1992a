package dev.layerfold.e2e.oci;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.Set;

/** Checks that an image came back from a registry exactly as it went in. */
public final class LayoutAssertions {

    private LayoutAssertions() {
    }

    /**
     * {@code pulled} holds under {@code tag} the same manifest (or index) as {@code pushed}, and every
     * blob it needs, each stored with the bytes its digest names.
     */
    public static void assertSameImage(OciLayout pushed, OciLayout pulled, String tag) throws IOException {
        String digest = pushed.tagged(tag).digest();
        assertThat(pulled.tagged(tag).digest()).as("manifest digest of %s after the round trip", tag).isEqualTo(digest);
        assertSameBlobs(pushed, pulled, digest);
    }

    /**
     * {@code pulled} holds every blob manifest (or index) {@code digest} needs in {@code pushed}, each
     * with the bytes its digest names; for layouts that name no tag (as {@code crane pull} writes them).
     */
    public static void assertSameBlobs(OciLayout pushed, OciLayout pulled, String digest) throws IOException {
        Set<String> expected = pushed.closure(digest);
        assertThat(pulled.closure(digest)).as("blobs the pulled %s references", digest).isEqualTo(expected);
        for (String blob : expected) {
            assertThat(pulled.hasBlob(blob)).as("pulled layout has blob %s", blob).isTrue();
            assertThat(pulled.digestOfStored(blob)).as("digest of the bytes pulled for %s", blob).isEqualTo(blob);
        }
    }
}
