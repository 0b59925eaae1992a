package dev.layerfold.dedup.codec;

import dev.layerfold.dedup.codec.recipe.FileRef;
import dev.layerfold.dedup.codec.io.FileSink;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;

/** A file sink and content source over a map, for tests with small layers. */
public final class MemoryFileStore implements FileSink, FileContentSource {

    final Map<FileRef, byte[]> bodies = new HashMap<>();
    int aborted;
    int completed;

    /** How many distinct file bodies it holds. */
    public int files() {
        return bodies.size();
    }

    @Override
    public Body begin(long declaredSize) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        return new Body() {
            @Override
            public void write(byte[] data, int offset, int length) {
                bytes.write(data, offset, length);
            }

            @Override
            public void complete(FileRef ref) {
                completed++;
                bodies.put(ref, bytes.toByteArray());
            }

            @Override
            public void abort() {
                aborted++;
            }
        };
    }

    @Override
    public InputStream open(FileRef ref) throws FileNotFoundException {
        byte[] body = bodies.get(ref);
        if (body == null) {
            throw new FileNotFoundException("no body " + ref);
        }
        return new ByteArrayInputStream(body);
    }
}
