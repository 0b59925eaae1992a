package dev.layerfold.predictor.tier;

import dev.layerfold.storage.Digest;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Map;

/** Layers as byte arrays on the heap; lost with the process. */
final class MemoryShelf implements Shelf {

    @Override
    public Writer writer(Digest digest, long size) {
        // The tier admits only layers far below 2 GiB, so the size fits an array.
        ByteArrayOutputStream buffer = new ByteArrayOutputStream((int) size);
        return new Writer() {
            @Override
            public OutputStream output() {
                return buffer;
            }

            @Override
            public Kept keep() {
                return new InMemory(buffer.toByteArray());
            }

            @Override
            public void abandon() {
            }
        };
    }

    @Override
    public Map<Digest, Kept> existing() {
        return Map.of();
    }

    private record InMemory(byte[] bytes) implements Kept {
        @Override
        public long size() {
            return bytes.length;
        }

        @Override
        public InputStream open(long offset, long length) {
            int from = (int) offset;
            int count = length < 0 ? bytes.length - from : (int) length;
            return new ByteArrayInputStream(bytes, from, count);
        }

        @Override
        public void discard() {
        }
    }
}
