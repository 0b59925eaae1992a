package dev.layerfold.e2e.blob;

import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodySubscribers;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.concurrent.Flow;

/**
 * What came of a blob {@code GET}: the size (and, when asked, the digest) of a 200 body, taken from the
 * client's buffers as they arrive, never copied; or the text of any other answer, for the error message.
 */
record ReceivedBody(long size, String error) {

    /** Digests a 200 body into {@code digest}, or only counts it if {@code digest} is null. */
    static HttpResponse.BodyHandler<ReceivedBody> handler(MessageDigest digest) {
        return info -> info.statusCode() == 200
                ? BodySubscribers.fromSubscriber(new Tally(digest), tally -> new ReceivedBody(tally.size, null))
                : BodySubscribers.mapping(BodySubscribers.ofString(StandardCharsets.UTF_8), text -> new ReceivedBody(0, text));
    }

    /** Consumes buffers on the client's reading thread, so the socket is read no faster than this keeps up. */
    private static final class Tally implements Flow.Subscriber<List<ByteBuffer>> {
        private final MessageDigest digest;
        private long size;

        Tally(MessageDigest digest) {
            this.digest = digest;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> buffers) {
            for (ByteBuffer buffer : buffers) {
                size += buffer.remaining();
                if (digest != null) {
                    digest.update(buffer);
                } else {
                    buffer.position(buffer.limit());
                }
            }
        }

        @Override
        public void onError(Throwable failure) {
            // fromSubscriber completes the response exceptionally; nothing is held here
        }

        @Override
        public void onComplete() {
            // the size is final; fromSubscriber's finisher reads it
        }
    }
}
