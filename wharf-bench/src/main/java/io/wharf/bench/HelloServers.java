package io.wharf.bench;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import io.wharf.http.HttpField;
import io.wharf.http.MimeTypes;
import io.wharf.server.Handler;
import io.wharf.server.Response;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;

/**
 * The two hello-world HTTP/1.1 servers of the {@code http}, {@code pipeline} and {@code idle-http}
 * macro runs, Wharf and Jetty 12.1, set up alike by {@link BenchServers} (one acceptor, one
 * selector, the default thread pool), each with a non-blocking handler that answers
 * {@code /plaintext} with {@code Hello, World!} (text/plain) and {@code /json} with
 * {@code {"message":"Hello, World!"}} (application/json) from a pre-made read-only buffer
 * and a pre-encoded Content-Type field, and 404 otherwise. Started by {@link ServerProcess}
 * in its own JVM; the handlers run on the selector thread that parsed the request. Each
 * response writes a fresh {@code slice()} of the shared read-only body, so no bytes are copied
 * and no buffer is owned by the handler.
 */
final class HelloServers {

    static final byte[] PLAINTEXT = "Hello, World!".getBytes(StandardCharsets.US_ASCII);
    static final byte[] JSON = "{\"message\":\"Hello, World!\"}".getBytes(StandardCharsets.US_ASCII);

    private HelloServers() {
    }

    static ServerProcess.Target wharf(InetSocketAddress address) throws Exception {
        return BenchServers.wharf(address, wharfHandler());
    }

    /** @return Wharf's hello-world handler, for the HTTP/1.1 servers here and the HTTP/2 ones of {@link Http2Servers} */
    static Handler wharfHandler() {
        ByteBuffer plaintext = ByteBuffer.wrap(PLAINTEXT).asReadOnlyBuffer();
        ByteBuffer json = ByteBuffer.wrap(JSON).asReadOnlyBuffer();
        HttpField textType = MimeTypes.Type.TEXT_PLAIN.getContentTypeField();
        HttpField jsonType = MimeTypes.Type.APPLICATION_JSON.getContentTypeField();
        return Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> switch (request.getPathInContext()) {
            case "/plaintext" -> reply(response, callback, textType, plaintext);
            case "/json" -> reply(response, callback, jsonType, json);
            default -> false;
        });
    }

    /** Answers with {@code body} (the caller's to give away) and the pre-encoded {@code contentType}; the servlet run's core handler too. */
    static boolean reply(Response response, Callback callback, HttpField contentType, ByteBuffer body) {
        response.getHeaders().put(contentType);
        response.write(true, body.slice(), callback);
        return true;
    }

    static ServerProcess.Target jetty(InetSocketAddress address) throws Exception {
        return BenchServers.jetty(address, server -> jettyHandler());
    }

    /** @return Jetty's hello-world handler, the same as Wharf's */
    static org.eclipse.jetty.server.Handler jettyHandler() {
        ByteBuffer plaintext = ByteBuffer.wrap(PLAINTEXT).asReadOnlyBuffer();
        ByteBuffer json = ByteBuffer.wrap(JSON).asReadOnlyBuffer();
        org.eclipse.jetty.http.HttpField textType = org.eclipse.jetty.http.MimeTypes.Type.TEXT_PLAIN.getContentTypeField();
        org.eclipse.jetty.http.HttpField jsonType = org.eclipse.jetty.http.MimeTypes.Type.APPLICATION_JSON.getContentTypeField();
        return new org.eclipse.jetty.server.Handler.Abstract.NonBlocking() {
            @Override
            public boolean handle(org.eclipse.jetty.server.Request request, org.eclipse.jetty.server.Response response,
                                  org.eclipse.jetty.util.Callback callback) {
                ByteBuffer body;
                org.eclipse.jetty.http.HttpField type;
                switch (org.eclipse.jetty.server.Request.getPathInContext(request)) {
                    case "/plaintext" -> {
                        body = plaintext;
                        type = textType;
                    }
                    case "/json" -> {
                        body = json;
                        type = jsonType;
                    }
                    default -> {
                        return false;
                    }
                }
                response.getHeaders().put(type);
                response.write(true, body.slice(), callback);
                return true;
            }
        };
    }
}
