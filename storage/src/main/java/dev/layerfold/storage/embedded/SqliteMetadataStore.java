package dev.layerfold.storage.embedded;

import dev.layerfold.storage.dedup.DedupIndex;
import dev.layerfold.storage.dedup.DedupQueue;
import dev.layerfold.storage.dedup.DedupStorage;
import dev.layerfold.storage.dedup.LayerPulls;
import dev.layerfold.storage.gc.GcIndex;
import dev.layerfold.storage.gc.GcStorage;
import dev.layerfold.storage.metadata.PartitionedMetadataStore;
import dev.layerfold.storage.metadata.ReferrerIndex;
import dev.layerfold.storage.metadata.RepositoryIndex;
import dev.layerfold.storage.metadata.TagStore;
import dev.layerfold.storage.metadata.UploadStateStore;
import dev.layerfold.storage.notification.NotificationOutbox;
import dev.layerfold.storage.notification.NotificationStorage;
import dev.layerfold.storage.predictor.ImageLayers;
import dev.layerfold.storage.predictor.PredictorStorage;
import dev.layerfold.storage.predictor.PullHistory;
import dev.layerfold.storage.predictor.PullHistoryLimits;
import dev.layerfold.storage.usage.RepositoryUsage;
import dev.layerfold.storage.usage.UsageStorage;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;

/**
 * Metadata in one SQLite file, for a single registry process or several on one host.
 * Every acknowledged write is on disk; reopening the file finds everything again.
 * Upload timestamps are kept to the millisecond.
 */
public final class SqliteMetadataStore extends PartitionedMetadataStore implements DedupStorage, GcStorage, PredictorStorage, UsageStorage,
        NotificationStorage {

    private final SqliteDatabase db;
    private final RepositoryIndex repositories;
    private final TagStore tags;
    private final ReferrerIndex referrers;
    private final UploadStateStore uploads;
    private final DedupQueue dedupQueue;
    private final DedupIndex dedupIndex;
    private final LayerPulls layerPulls;
    private final GcIndex gcIndex;
    private final ImageLayers imageLayers;
    private final RepositoryUsage usage;
    private final NotificationOutbox notificationOutbox;

    private SqliteMetadataStore(SqliteDatabase db) {
        this.db = db;
        this.repositories = new SqliteRepositoryIndex(db);
        this.tags = new SqliteTagStore(db);
        this.referrers = new SqliteReferrerIndex(db);
        this.uploads = new SqliteUploadStateStore(db);
        this.dedupQueue = new SqliteDedupQueue(db, Clock.systemUTC());
        this.dedupIndex = new SqliteDedupIndex(db, Clock.systemUTC());
        this.layerPulls = new SqliteLayerPulls(db, Clock.systemUTC());
        this.gcIndex = new SqliteGcIndex(db, Clock.systemUTC());
        this.imageLayers = new SqliteImageLayers(db);
        this.usage = new SqliteRepositoryUsage(db);
        this.notificationOutbox = new SqliteNotificationOutbox(db, Clock.systemUTC());
    }

    /** Opens (creating if needed) the database file and its schema. */
    public SqliteMetadataStore(Path dbFile) throws IOException {
        this(SqliteDatabase.open(dbFile));
    }

    @Override
    protected RepositoryIndex repositoryIndex() {
        return repositories;
    }

    @Override
    protected TagStore tagStore() {
        return tags;
    }

    @Override
    protected ReferrerIndex referrerIndex() {
        return referrers;
    }

    @Override
    protected UploadStateStore uploadStateStore() {
        return uploads;
    }

    @Override
    public DedupQueue dedupQueue() {
        return dedupQueue;
    }

    @Override
    public DedupIndex dedupIndex() {
        return dedupIndex;
    }

    @Override
    public LayerPulls layerPulls() {
        return layerPulls;
    }

    @Override
    public GcIndex gcIndex() {
        return gcIndex;
    }

    @Override
    public RepositoryUsage repositoryUsage() {
        return usage;
    }

    @Override
    public NotificationOutbox notificationOutbox() {
        return notificationOutbox;
    }

    @Override
    public ImageLayers imageLayers() {
        return imageLayers;
    }

    @Override
    public PullHistory pullHistory(PullHistoryLimits limits) {
        return new SqlitePullHistory(db, limits);
    }

    @Override
    public void close() {
        db.close();
    }
}
