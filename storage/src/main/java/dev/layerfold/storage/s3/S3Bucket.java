package dev.layerfold.storage.s3;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.metrics.MetricPublisher;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * One bucket and the clients that reach it, with the few object operations the stores need. SDK
 * failures become {@link IOException}s naming the key, and "no such key" becomes an empty result.
 */
public final class S3Bucket implements AutoCloseable {

    private final S3Client client;
    private final S3Presigner presigner;
    private final String name;

    S3Bucket(S3Client client, S3Presigner presigner, String name) {
        this.client = client;
        this.presigner = presigner;
        this.name = name;
    }

    /** Connects to the bucket the settings name; the bucket must already exist. */
    public static S3Bucket connect(S3Settings settings) {
        return connect(settings, List.of());
    }

    /** {@link #connect(S3Settings)}, with the SDK's metrics of every call told to {@code metrics}. */
    public static S3Bucket connect(S3Settings settings, List<MetricPublisher> metrics) {
        AwsCredentialsProvider credentials = settings.accessKey() == null
                ? DefaultCredentialsProvider.builder().build()
                : StaticCredentialsProvider.create(AwsBasicCredentials.create(settings.accessKey(), settings.secretKey()));
        Region region = Region.of(settings.region());
        var clientBuilder = S3Client.builder()
                .region(region)
                .credentialsProvider(credentials)
                .forcePathStyle(settings.pathStyle())
                // Flexible checksums are recent; S3-compatible servers (older MinIO, Ceph, S3Proxy) reject or
                // ignore them. Content-MD5/length and TLS already protect what this registry sends.
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .overrideConfiguration(override -> metrics.forEach(override::addMetricPublisher));
        var presignerBuilder = S3Presigner.builder()
                .region(region)
                .credentialsProvider(credentials)
                .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(settings.pathStyle()).build());
        if (settings.endpoint() != null) {
            clientBuilder.endpointOverride(settings.endpoint());
            presignerBuilder.endpointOverride(settings.endpoint());
        }
        return new S3Bucket(clientBuilder.build(), presignerBuilder.build(), settings.bucket());
    }

    public String name() {
        return name;
    }

    /** Fails unless the bucket exists and the credentials may use it: for health checks. */
    public void checkReachable() throws IOException {
        try {
            client.headBucket(request -> request.bucket(name));
        } catch (SdkException e) {
            throw new IOException("bucket " + name + " is unreachable: " + e.getMessage(), e);
        }
    }

    S3Client client() {
        return client;
    }

    /** The object's metadata, or empty if there is no such object. */
    Optional<HeadObjectResponse> head(String key) throws IOException {
        try {
            return Optional.of(client.headObject(request -> request.bucket(name).key(key)));
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                return Optional.empty();
            }
            throw failure("read the metadata of", key, e);
        } catch (SdkException e) {
            throw failure("read the metadata of", key, e);
        }
    }

    /** A small object's bytes (never a blob: it is held in memory), or empty if there is no such object. */
    public Optional<ResponseBytes<GetObjectResponse>> getSmall(String key) throws IOException {
        try {
            return Optional.of(client.getObjectAsBytes(request -> request.bucket(name).key(key)));
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        } catch (SdkException e) {
            throw failure("read", key, e);
        }
    }

    /** Streams the bytes {@code [from, to)} of an object; empty if there is no such object. */
    Optional<InputStream> getRange(String key, long from, long to) throws IOException {
        try {
            return Optional.of(client.getObject(request -> request.bucket(name).key(key)
                    .range("bytes=" + from + "-" + (to - 1))));
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        } catch (SdkException e) {
            throw failure("read", key, e);
        }
    }

    /** Stores a small object in one request; S3 makes it visible atomically. */
    public void put(String key, byte[] bytes, Map<String, String> metadata) throws IOException {
        put(key, bytes, metadata, request -> { });
    }

    void put(String key, byte[] bytes, Map<String, String> metadata, Consumer<PutObjectRequest.Builder> options)
            throws IOException {
        try {
            client.putObject(request -> options.accept(request.bucket(name).key(key).metadata(metadata)
                    .contentLength((long) bytes.length)), RequestBody.fromBytes(bytes));
        } catch (SdkException e) {
            throw failure("write", key, e);
        }
    }

    /**
     * Stores a small object unless the key exists ({@code If-None-Match: *}); false if it existed.
     * Servers without conditional writes ignore the condition and overwrite: callers that care check
     * afterwards which write won.
     */
    boolean putIfAbsent(String key, byte[] bytes, Map<String, String> metadata) throws IOException {
        try {
            put(key, bytes, metadata, request -> request.ifNoneMatch("*"));
            return true;
        } catch (IOException e) {
            // 412: the key exists; 409: a concurrent conditional write to the key is in progress (AWS).
            if (e.getCause() instanceof S3Exception s3 && (s3.statusCode() == 412 || s3.statusCode() == 409)) {
                return false;
            }
            throw e;
        }
    }

    /** Deletes an object; deleting a missing key is not an error (S3 semantics). */
    public void delete(String key) throws IOException {
        try {
            client.deleteObject(request -> request.bucket(name).key(key));
        } catch (SdkException e) {
            throw failure("delete", key, e);
        }
    }

    /** Every object under {@code prefix}, in key order, fetched page by page as the caller iterates. */
    public Iterable<S3Object> list(String prefix) {
        return client.listObjectsV2Paginator(ListObjectsV2Request.builder().bucket(name).prefix(prefix).build()).contents();
    }

    /** Up to {@code limit} objects under {@code prefix} whose keys come after {@code startAfter}, in key order. */
    public List<S3Object> list(String prefix, String startAfter, int limit) throws IOException {
        try {
            List<S3Object> objects = new ArrayList<>(Math.min(limit, 1000));
            for (S3Object object : client.listObjectsV2Paginator(ListObjectsV2Request.builder().bucket(name).prefix(prefix)
                    .startAfter(startAfter).maxKeys(Math.min(limit, 1000)).build()).contents()) {
                objects.add(object);
                if (objects.size() == limit) {
                    break;
                }
            }
            return objects;
        } catch (SdkException e) {
            throw failure("list", prefix + "*", e);
        }
    }

    URI presignGet(String key, Duration validFor) {
        return URI.create(presigner.presignGetObject(request -> request.signatureDuration(validFor)
                .getObjectRequest(get -> get.bucket(name).key(key))).url().toString());
    }

    IOException failure(String action, String key, SdkException cause) {
        return new IOException("cannot " + action + " s3://" + name + "/" + key + ": " + cause.getMessage(), cause);
    }

    @Override
    public void close() {
        presigner.close();
        client.close();
    }
}
