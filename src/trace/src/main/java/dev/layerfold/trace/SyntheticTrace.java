package dev.layerfold.trace;

import java.util.List;
import java.util.Map;

/**
 * A generated trace and what it is made of: every image version (by {@code repository:tag}, as its
 * manifest GETs name it) with its layers, which a registry would read from the pushed manifests.
 *
 * @param records the requests, in time order
 * @param images every image version, those present at the start and those pushed during the trace
 * @param uniqueBytes the bytes of all distinct layers
 */
public record SyntheticTrace(List<TraceRecord> records, Map<String, Image> images, long uniqueBytes) {

    public record Layer(String digest, long size) {
    }

    /** An image version, named by its tag. */
    public record Image(String repository, String tag, List<Layer> layers) {
        public String reference() {
            return repository + ":" + tag;
        }
    }
}
