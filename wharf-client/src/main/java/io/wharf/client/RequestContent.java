package io.wharf.client;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Flow;

import io.wharf.client.internal.content.BytesContent;
import io.wharf.client.internal.content.FormEncoding;
import io.wharf.client.internal.content.InputStreamContent;
import io.wharf.client.internal.content.PathContent;
import io.wharf.client.internal.content.PublisherContent;
import io.wharf.http.form.FormFields;
import io.wharf.io.Content;

/**
 * The content of a request: a pull {@link Content.Source} that the connection's writer reads
 * chunk by chunk, with its type and, when known, its length (then sent as Content-Length;
 * otherwise HTTP/1.1 sends it chunked).
 *
 * <p><b>Threads and buffers.</b> One writer reads it, one chunk at a time: it releases each
 * chunk once written before it reads the next, so the sources below reuse one buffer and
 * hold at most that much memory whatever the size of the content. A source that may block
 * (a file, an {@link InputStream}) says so with {@link #isBlocking()}: it is then read on a
 * pool thread, never on a selector thread. {@link #fail} may be called from any thread.
 */
public interface RequestContent extends Content.Source {

    /** @return the value of the Content-Type field, or null */
    String getContentType();

    /** @return whether {@link #read()} may block the calling thread */
    default boolean isBlocking() {
        return false;
    }

    /**
     * Starts the content again from its first byte, for a request retried on another
     * connection.
     *
     * @return false when the content cannot be read again (a stream), true when it was rewound
     */
    default boolean rewind() {
        return false;
    }

    /** @return UTF-8 text, {@code text/plain;charset=utf-8} */
    static RequestContent of(String text) {
        return of(text, "text/plain;charset=utf-8");
    }

    /** @return UTF-8 text with the given content type */
    static RequestContent of(String text, String contentType) {
        return new BytesContent(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), contentType);
    }

    /** @return the bytes (not copied: do not change them until the request is over), application/octet-stream */
    static RequestContent of(byte[] bytes) {
        return of(ByteBuffer.wrap(bytes), "application/octet-stream");
    }

    /** @return the remaining bytes of {@code buffer} (not copied, position untouched) with the given type */
    static RequestContent of(ByteBuffer buffer, String contentType) {
        return new BytesContent(buffer.slice(), contentType);
    }

    /**
     * @return the file's bytes, streamed from disk in 64 KiB reads (never loaded whole),
     *     application/octet-stream
     * @throws IOException when the file cannot be opened
     */
    static RequestContent of(Path file) throws IOException {
        return of(file, "application/octet-stream");
    }

    /** @return the file's bytes streamed from disk, with the given type */
    static RequestContent of(Path file, String contentType) throws IOException {
        return new PathContent(file, contentType, PathContent.DEFAULT_READ_SIZE);
    }

    /**
     * @return the stream's bytes, read as they are written (chunked: length unknown), the
     *     stream closed at its end or on failure; application/octet-stream
     */
    static RequestContent of(InputStream stream) {
        return new InputStreamContent(stream, "application/octet-stream", InputStreamContent.DEFAULT_READ_SIZE);
    }

    /**
     * @return the buffers {@code publisher} emits, requested one at a time as the connection
     *     takes them (back-pressure), sent chunked; the request is not retried (a publisher is
     *     subscribed once). The publisher must not reuse a buffer it emitted.
     */
    static RequestContent of(Flow.Publisher<ByteBuffer> publisher, String contentType) {
        return new PublisherContent(publisher, contentType);
    }

    /** @return {@code fields} as {@code application/x-www-form-urlencoded} (UTF-8) */
    static RequestContent form(FormFields fields) {
        return new BytesContent(ByteBuffer.wrap(FormEncoding.encode(fields).getBytes(StandardCharsets.US_ASCII)),
                FormEncoding.CONTENT_TYPE);
    }
}
