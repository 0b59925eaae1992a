package dev.layerfold.storage.blob;

import java.io.IOException;

/** An upload id the store does not know: never started, already published, or aborted. */
public class UploadNotFoundException extends IOException {
    public UploadNotFoundException(String uploadId) {
        super("upload " + uploadId + " does not exist (never started, already completed, or cancelled)");
    }
}
