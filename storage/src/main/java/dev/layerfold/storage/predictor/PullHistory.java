package dev.layerfold.storage.predictor;

import dev.layerfold.storage.Digest;
import java.io.IOException;
import java.time.Instant;
import java.util.Collection;

/**
 * ULmap: for each user (a signed-in identity, or a client address and user agent), the layers it pulled
 * with how often and when last, and how often it pulls again layers it already holds. Shared by every
 * process on the backend; every update is atomic, so concurrent pulls never lose a count. Checked for
 * every implementation by {@code PredictorMapsContract}.
 *
 * <p><b>Bounded.</b> A layer not pulled for {@link PullHistoryLimits#forgetAfter()} is forgotten (its
 * client has likely dropped it), a user keeps at most {@link PullHistoryLimits#layersPerUser()} layers
 * (the least recently pulled go first), a user idle that long is forgotten whole, and the repull
 * counters halve once the offers reach {@link PullHistoryLimits#decayAt()}, so recent behaviour weighs
 * more than old.
 *
 * <p>Times are the caller's ({@code now}), so that all updates of a process agree with its clock.
 */
public interface PullHistory {

    /**
     * What {@code user} holds of {@code layers} (layers forgotten or never pulled are absent from
     * {@link UserHistory#pulls()}), and the repull counters of the user and of {@code image}.
     */
    UserHistory read(String user, ImageRef image, Collection<Digest> layers, Instant now) throws IOException;

    /**
     * The user fetched {@code image}'s manifest, whose layers include {@code heldLayers} it already holds:
     * each is a chance to repull, counted for the user and the image; the image becomes the user's
     * last, to which its next repulls are counted. {@code platform} is the platform it chose, when
     * known (empty otherwise).
     */
    void offered(String user, ImageRef image, int heldLayers, String platform, Instant now) throws IOException;

    /**
     * The user pulled a layer: its count goes up by one and its last time becomes {@code now}. If it
     * held the layer already, one repull is counted for the user and for the image it fetched last.
     *
     * @return how many times the user had pulled the layer before (0: never, or forgotten)
     */
    long pulled(String user, Digest layer, Instant now) throws IOException;

    /** Forgets users idle since {@code now - forgetAfter}, for backends whose entries do not expire by themselves. */
    void forgetIdle(Instant now) throws IOException;
}
