package dev.layerfold.storage.embedded;

import dev.layerfold.storage.predictor.ImageContents;
import dev.layerfold.storage.predictor.ImageLayers;
import dev.layerfold.storage.predictor.ImageRef;
import java.io.IOException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Optional;

/** ILmap as a table of the metadata database: a row per pushed manifest. */
final class SqliteImageLayers implements ImageLayers {

    private final SqliteDatabase db;

    SqliteImageLayers(SqliteDatabase db) {
        this.db = db;
    }

    @Override
    public void put(ImageRef image, ImageContents contents) throws IOException {
        db.write(c -> {
            try (PreparedStatement put = c.prepareStatement("""
                    INSERT INTO predictor_images (repository, manifest, contents) VALUES (?, ?, ?)
                    ON CONFLICT (repository, manifest) DO UPDATE SET contents = excluded.contents""")) {
                put.setString(1, image.repository().value());
                put.setString(2, image.manifest().toString());
                put.setString(3, contents.encode());
                put.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public Optional<ImageContents> get(ImageRef image) throws IOException {
        return db.read(c -> {
            try (PreparedStatement get = c.prepareStatement(
                    "SELECT contents FROM predictor_images WHERE repository = ? AND manifest = ?")) {
                get.setString(1, image.repository().value());
                get.setString(2, image.manifest().toString());
                try (ResultSet row = get.executeQuery()) {
                    return row.next() ? Optional.of(ImageContents.decode(row.getString(1))) : Optional.empty();
                }
            }
        });
    }

    @Override
    public void remove(ImageRef image) throws IOException {
        db.write(c -> {
            try (PreparedStatement delete = c.prepareStatement(
                    "DELETE FROM predictor_images WHERE repository = ? AND manifest = ?")) {
                delete.setString(1, image.repository().value());
                delete.setString(2, image.manifest().toString());
                delete.executeUpdate();
            }
            return null;
        });
    }
}
