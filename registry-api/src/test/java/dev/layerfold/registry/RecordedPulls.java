package dev.layerfold.registry;

import dev.layerfold.registry.api.PullListener;
import dev.layerfold.registry.api.Puller;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Every pull the API reported, for tests to read back (filtered by repository, since tests share the context). */
public final class RecordedPulls implements PullListener {

    /** One report: {@code manifest} or {@code blob}, by whom, of what. */
    public record Pull(String kind, Puller puller, RepositoryName repository, Digest digest) {
    }

    private final List<Pull> pulls = new CopyOnWriteArrayList<>();

    @Override
    public void manifestPulled(Puller puller, RepositoryName repository, Digest manifest) {
        pulls.add(new Pull("manifest", puller, repository, manifest));
    }

    @Override
    public void blobPulled(Puller puller, RepositoryName repository, Digest blob) {
        pulls.add(new Pull("blob", puller, repository, blob));
    }

    public List<Pull> of(String repository) {
        return pulls.stream().filter(pull -> pull.repository().value().equals(repository)).toList();
    }
}
