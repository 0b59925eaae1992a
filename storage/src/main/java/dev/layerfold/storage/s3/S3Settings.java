package dev.layerfold.storage.s3;

import java.net.URI;
import java.util.Objects;

/**
 * Where the bucket is and how to reach it.
 *
 * @param endpoint the S3 API endpoint, or null for AWS S3 in {@code region}
 * @param region the signing region (S3-compatible servers usually accept any, such as {@code us-east-1})
 * @param bucket the bucket, which must exist
 * @param pathStyle address the bucket as {@code endpoint/bucket} instead of {@code bucket.endpoint}
 *     (MinIO, S3Proxy and Ceph without wildcard DNS need this)
 * @param accessKey the access key id, or null for the SDK's default credential chain (environment,
 *     instance profile, web identity...)
 * @param secretKey the secret key matching {@code accessKey}
 * @param presignedRedirects hand pulling clients a presigned URL instead of streaming blobs through the
 *     registry; the endpoint must then be reachable by clients under the same name
 * @param partSize bytes per multipart part (at least S3's 5 MiB minimum; S3 allows 10,000 parts, so
 *     the largest blob is 10,000 times this)
 */
public record S3Settings(URI endpoint, String region, String bucket, boolean pathStyle, String accessKey,
                         String secretKey, boolean presignedRedirects, int partSize) {

    /** S3 rejects non-final parts below this size. */
    public static final int MINIMUM_PART_SIZE = 5 * 1024 * 1024;

    /** 8 MiB parts allow blobs up to 78 GiB while an append buffers at most one part. */
    public static final int DEFAULT_PART_SIZE = 8 * 1024 * 1024;

    public S3Settings {
        Objects.requireNonNull(region, "region");
        if (bucket == null || bucket.isBlank()) {
            throw new IllegalArgumentException("an S3 bucket name is required (layerfold.storage.s3.bucket)");
        }
        if ((accessKey == null) != (secretKey == null)) {
            throw new IllegalArgumentException("give both an S3 access key and a secret key, or neither to use the "
                    + "default AWS credential chain");
        }
        if (partSize < MINIMUM_PART_SIZE) {
            throw new IllegalArgumentException("S3 part size " + partSize + " is below S3's minimum of "
                    + MINIMUM_PART_SIZE + " bytes");
        }
    }
}
