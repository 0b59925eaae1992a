package dev.layerfold.predictor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.predictor.ImageContents.Layer;
import dev.layerfold.storage.predictor.UserHistory;
import dev.layerfold.storage.predictor.UserHistory.LayerPulls;
import dev.layerfold.storage.predictor.UserHistory.RepullCounts;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PredictorTest {

    private static final Layer BASE = layer("base", 30);
    private static final Layer APP = layer("app", 10);
    private static final Layer CONFIG = layer("config", 5);
    private final Predictor predictor = new Predictor(0.5);

    private static Layer layer(String name, long size) {
        return new Layer(Digest.sha256(name.getBytes(StandardCharsets.UTF_8)), size);
    }

    private static UserHistory holding(RepullCounts user, RepullCounts image, Layer... held) {
        Map<Digest, LayerPulls> pulls = new java.util.HashMap<>();
        for (Layer layer : held) {
            pulls.put(layer.digest(), new LayerPulls(1, 0));
        }
        return new UserHistory(pulls, user, image, Optional.empty(), "");
    }

    private List<Layer> predicted(UserHistory history) {
        return predictor.predict(List.of(BASE, APP, CONFIG), history).stream().map(Predictor.Predicted::layer).toList();
    }

    @Test
    void aClientGetsTheLayersItNeverPulled() {
        assertThat(predicted(holding(RepullCounts.NONE, RepullCounts.NONE, BASE))).containsExactly(CONFIG, APP);
    }

    @Test
    void layersAClientHoldsArePredictedOnlyIfItPullsHeldLayersAgain() {
        RepullCounts pullsOnce = new RepullCounts(40, 1);
        RepullCounts alwaysPulls = new RepullCounts(40, 39);

        assertThat(predicted(holding(pullsOnce, RepullCounts.NONE, BASE, APP))).containsExactly(CONFIG);
        assertThat(predicted(holding(alwaysPulls, RepullCounts.NONE, BASE, APP))).containsExactly(CONFIG, APP, BASE);
    }

    @Test
    void theImagesRecordDecidesForAUserWithoutOneOfItsOwn() {
        RepullCounts repulledByEveryone = new RepullCounts(100, 95);

        assertThat(predicted(holding(RepullCounts.NONE, repulledByEveryone, BASE))).contains(BASE);
        assertThat(predicted(holding(RepullCounts.NONE, RepullCounts.NONE, BASE))).doesNotContain(BASE);
    }

    @Test
    void aUsersOwnRecordOutweighsTheImagesOnceItHasSome() {
        RepullCounts repulledByEveryone = new RepullCounts(100, 95);
        RepullCounts neverRepulls = new RepullCounts(30, 0);

        assertThat(predicted(holding(neverRepulls, repulledByEveryone, BASE))).doesNotContain(BASE);
    }
}
