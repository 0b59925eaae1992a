package dev.layerfold.storage.embedded;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** Child process for the kill -9 test: puts tags forever, printing each one after putTag returned. */
public final class TagWritingProcess {

    static final RepositoryName REPOSITORY = RepositoryName.of("crash/test");

    private TagWritingProcess() {
    }

    public static void main(String[] args) throws Exception {
        SqliteMetadataStore store = new SqliteMetadataStore(Path.of(args[0]));
        for (int i = 0; ; i++) {
            String tag = "t" + i;
            store.putTag(REPOSITORY, tag, digestOf(tag));
            System.out.println(tag);
            System.out.flush();
        }
    }

    static Digest digestOf(String tag) {
        return Digest.sha256(tag.getBytes(StandardCharsets.UTF_8));
    }
}
