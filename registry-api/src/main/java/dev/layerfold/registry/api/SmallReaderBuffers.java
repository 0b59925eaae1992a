package dev.layerfold.registry.api;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.CharBuffer;
import org.apache.catalina.connector.CoyoteAdapter;
import org.apache.catalina.connector.InputBuffer;
import org.apache.catalina.connector.Request;
import org.apache.coyote.Adapter;
import org.apache.coyote.Response;
import org.apache.tomcat.util.net.SocketEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tomcat's adapter, which gives each new servlet request a 16 KiB char buffer for {@code getReader()}
 * and keeps it for as long as the request is in progress: a quarter of what a slow client's request
 * holds, and no setting sizes it. The registry reads bodies as bytes only, so once Tomcat made the
 * request (its first pass through the adapter, which for a slow client ends when the upload has gone
 * async or the response is left to sendfile) its char buffer is swapped for one of
 * {@value #CHARS} chars, which {@code getReader()} would still read through, a piece at a time.
 *
 * <p>The buffer is a private field of Tomcat's: if a Tomcat release renames it, the swap is skipped
 * (logged once at start) and requests keep Tomcat's buffer, which only costs memory.
 */
final class SmallReaderBuffers implements Adapter {

    static final int CHARS = 1024;
    private static final Logger log = LoggerFactory.getLogger(SmallReaderBuffers.class);
    private static final VarHandle INPUT_BUFFER;
    private static final VarHandle CHAR_BUFFER;

    static {
        VarHandle inputBuffer = null;
        VarHandle charBuffer = null;
        try {
            inputBuffer = MethodHandles.privateLookupIn(Request.class, MethodHandles.lookup())
                    .findVarHandle(Request.class, "inputBuffer", InputBuffer.class);
            charBuffer = MethodHandles.privateLookupIn(InputBuffer.class, MethodHandles.lookup())
                    .findVarHandle(InputBuffer.class, "cb", CharBuffer.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            log.warn("Tomcat's request char buffer was not found ({}); each request in progress keeps 16 KiB more", e.toString());
        }
        INPUT_BUFFER = inputBuffer;
        CHAR_BUFFER = charBuffer;
    }

    private final Adapter tomcat;

    SmallReaderBuffers(Adapter tomcat) {
        this.tomcat = tomcat;
    }

    @Override
    public void service(org.apache.coyote.Request req, Response res) throws Exception {
        try {
            tomcat.service(req, res);
        } finally {
            shrink(req);
        }
    }

    /** Swaps the char buffer of the servlet request Tomcat keeps with {@code req}, once. */
    static void shrink(org.apache.coyote.Request req) {
        if (CHAR_BUFFER != null && req.getNote(CoyoteAdapter.ADAPTER_NOTES) instanceof Request request) {
            InputBuffer input = (InputBuffer) INPUT_BUFFER.get(request);
            if (((CharBuffer) CHAR_BUFFER.get(input)).capacity() > CHARS) {
                CHAR_BUFFER.set(input, CharBuffer.allocate(CHARS).limit(0)); // empty, as Tomcat keeps it
            }
        }
    }

    @Override
    public boolean prepare(org.apache.coyote.Request req, Response res) throws Exception {
        return tomcat.prepare(req, res);
    }

    @Override
    public boolean asyncDispatch(org.apache.coyote.Request req, Response res, SocketEvent status) throws Exception {
        return tomcat.asyncDispatch(req, res, status);
    }

    @Override
    public void log(org.apache.coyote.Request req, Response res, long time) {
        tomcat.log(req, res, time);
    }

    @Override
    public void checkRecycled(org.apache.coyote.Request req, Response res) {
        tomcat.checkRecycled(req, res);
    }

    @Override
    public String getDomain() {
        return tomcat.getDomain();
    }
}
