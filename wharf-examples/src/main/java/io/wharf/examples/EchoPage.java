package io.wharf.examples;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import io.wharf.http.HttpField;
import io.wharf.http.MimeTypes;
import io.wharf.io.Content;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.util.Callback;

/**
 * The demo's {@code /echo} page: shows the request back as plain text — method, URI,
 * version, client address, header fields and (up to 64 KiB of) content. It reads the content
 * without blocking: read what is there, demand more, and answer at the last chunk.
 */
final class EchoPage implements Runnable {

    private static final int MAX_SHOWN = 64 * 1024;

    private final Request request;
    private final Response response;
    private final Callback callback;
    private final ByteArrayOutputStream content = new ByteArrayOutputStream();
    private long total;

    private EchoPage(Request request, Response response, Callback callback) {
        this.request = request;
        this.response = response;
        this.callback = callback;
    }

    static void respond(Request request, Response response, Callback callback) {
        new EchoPage(request, response, callback).run();
    }

    /** Reads what is available; demands more, or answers when the content ended. */
    @Override
    public void run() {
        while (true) {
            Content.Chunk chunk = request.read();
            if (chunk == null) {
                request.demand(this);
                return;
            }
            Throwable failure = chunk.getFailure();
            if (failure != null) {
                callback.failed(failure);
                return;
            }
            ByteBuffer bytes = chunk.getByteBuffer();
            total += bytes.remaining();
            while (bytes.hasRemaining() && content.size() < MAX_SHOWN) {
                content.write(bytes.get());
            }
            chunk.release();
            if (chunk.isLast()) {
                answer();
                return;
            }
        }
    }

    private void answer() {
        StringBuilder text = new StringBuilder(512)
                .append(request.getMethod()).append(' ').append(request.getHttpURI()).append(' ')
                .append(request.getConnectionMetaData().getProtocol()).append('\n')
                .append("client: ").append(Request.getRemoteAddress(request)).append(':').append(Request.getRemotePort(request)).append('\n')
                .append('\n');
        for (HttpField field : request.getHeaders()) {
            text.append(field.getName()).append(": ").append(field.getValue()).append('\n');
        }
        text.append('\n').append(total).append(" bytes of content");
        if (total > 0) {
            text.append(total > MAX_SHOWN ? " (first " + MAX_SHOWN + " shown)" : "").append(":\n")
                    .append(content.toString(StandardCharsets.UTF_8));
        }
        text.append('\n');
        response.getHeaders().put(MimeTypes.Type.TEXT_PLAIN_UTF_8.getContentTypeField());
        Response.write(response, true, text.toString(), callback);
    }
}
