package dev.layerfold.registry.api;

import org.apache.coyote.Adapter;
import org.apache.coyote.http11.Http11NioProtocol;

/**
 * Tomcat's HTTP/1.1 connector with small buffers in each request in progress, which a slow client holds
 * for as long as it likes: thousands of them must fit in a small heap.
 *
 * <p>Tomcat sizes the servlet response's byte buffer, and a char buffer of as many chars beside it, by
 * the protocol's desired buffer size, 8 KiB unless a protocol says otherwise: 24 KiB. The registry writes
 * bodies in pieces larger than that (Tomcat passes those straight to the connection's write buffer) or
 * by sendfile, never through a {@code Writer}, so 1 KiB costs no throughput; a response longer than that
 * without a Content-Length is sent chunked. The servlet request's char buffer is made small by
 * {@link SmallReaderBuffers}. Named by class in Tomcat's protocol setting, so it must stay public.
 */
public class LeanHttp11NioProtocol extends Http11NioProtocol {

    static final int RESPONSE_BUFFER = 1024;

    @Override
    public int getDesiredBufferSize() {
        return RESPONSE_BUFFER;
    }

    @Override
    public void setAdapter(Adapter adapter) {
        super.setAdapter(new SmallReaderBuffers(adapter));
    }
}
