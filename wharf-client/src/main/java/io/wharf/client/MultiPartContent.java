package io.wharf.client;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import io.wharf.client.internal.content.BytesContent;
import io.wharf.io.Content;

/**
 * {@code multipart/form-data} request content (RFC 7578): fields and files, each part streamed
 * from its own content in turn, so a file part is read from disk as it is sent, never loaded
 * whole. Build it, then give it to a request:
 *
 * <pre>{@code
 * MultiPartContent form = new MultiPartContent()
 *         .field("title", "Quarterly report")
 *         .file("upload", "report.pdf", "application/pdf", Path.of("report.pdf"));
 * client.POST(uri).content(form).send();
 * }</pre>
 *
 * <p>The boundary is 32 random letters and digits. Names and file names are sent quoted,
 * UTF-8; a name or file name with a CR, LF or NUL is refused with an
 * {@link IllegalArgumentException}. The length is known (sent as Content-Length) when every
 * part's is. It can be read again for a retry only when every part can.
 *
 * <p>Threads and buffers: like any {@link RequestContent}, read by one writer one chunk at a
 * time; a part's chunks are its content's own (a file part reuses one buffer); parts are
 * added before the request is sent, not while it is.
 */
public final class MultiPartContent implements RequestContent {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String BOUNDARY_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

    private final String boundary = newBoundary();
    /** Part heads, part contents and their line ends, then the closing delimiter, in order. */
    private final List<RequestContent> sequence = new ArrayList<>();
    private boolean closed;
    private int current;
    private volatile Throwable failure;

    private static String newBoundary() {
        StringBuilder boundary = new StringBuilder(32);
        for (int i = 0; i < 32; i++) {
            boundary.append(BOUNDARY_LETTERS.charAt(RANDOM.nextInt(BOUNDARY_LETTERS.length())));
        }
        return boundary.toString();
    }

    /** Adds a text field (UTF-8). */
    public MultiPartContent field(String name, String value) {
        return part(name, null, RequestContent.of(value, "text/plain;charset=utf-8"));
    }

    /**
     * Adds a file part read from {@code file} as it is sent.
     *
     * @throws IOException when the file cannot be opened
     */
    public MultiPartContent file(String name, String fileName, String contentType, Path file) throws IOException {
        return part(name, Objects.requireNonNull(fileName, "fileName"), RequestContent.of(file, contentType));
    }

    /**
     * Adds a part with any content, whose type becomes the part's Content-Type.
     *
     * @param fileName the part's file name, or null for a field
     */
    public MultiPartContent part(String name, String fileName, RequestContent content) {
        if (closed) {
            throw new IllegalStateException("parts are added before the content is read");
        }
        StringBuilder head = new StringBuilder("--").append(boundary).append("\r\n")
                .append("Content-Disposition: form-data; name=\"").append(quoted("name", name)).append('"');
        if (fileName != null) {
            head.append("; filename=\"").append(quoted("file name", fileName)).append('"');
        }
        head.append("\r\n");
        if (content.getContentType() != null) {
            head.append("Content-Type: ").append(content.getContentType()).append("\r\n");
        }
        head.append("\r\n");
        sequence.add(new BytesContent(ByteBuffer.wrap(head.toString().getBytes(StandardCharsets.UTF_8)), null));
        sequence.add(content);
        sequence.add(new BytesContent(ByteBuffer.wrap(new byte[] {'\r', '\n'}), null));
        return this;
    }

    private static String quoted(String what, String value) {
        Objects.requireNonNull(value, what);
        if (value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0 || value.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("a multipart " + what + " must not hold CR, LF or NUL: " + value.replaceAll("[\\r\\n\\x00]", "?"));
        }
        return value.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    /** @return the boundary between the parts */
    public String getBoundary() {
        return boundary;
    }

    @Override
    public String getContentType() {
        return "multipart/form-data; boundary=" + boundary;
    }

    /** Adds the closing delimiter once, when the content is first used. */
    private void close() {
        if (!closed) {
            closed = true;
            sequence.add(new BytesContent(ByteBuffer.wrap(("--" + boundary + "--\r\n").getBytes(StandardCharsets.US_ASCII)), null));
        }
    }

    @Override
    public Content.Chunk read() {
        close();
        while (true) {
            Throwable failed = failure;
            if (failed != null) {
                return Content.Chunk.from(failed);
            }
            if (current == sequence.size()) {
                return Content.Chunk.EOF;
            }
            Content.Chunk chunk = sequence.get(current).read();
            if (chunk == null || Content.Chunk.isFailure(chunk)) {
                return chunk;
            }
            if (!chunk.isLast()) {
                return chunk;
            }
            current++;
            if (current == sequence.size()) {
                return chunk;
            }
            if (chunk.hasRemaining()) {
                // The end of one part's content, not of the whole: the chunk goes on as a middle one.
                return Content.Chunk.from(chunk.getByteBuffer(), false, chunk);
            }
            chunk.release();
        }
    }

    @Override
    public void demand(Runnable onContentAvailable) {
        close();
        if (failure != null || current == sequence.size()) {
            onContentAvailable.run();
            return;
        }
        sequence.get(current).demand(onContentAvailable);
    }

    @Override
    public void fail(Throwable cause) {
        if (failure == null) {
            failure = cause;
        }
        for (RequestContent part : sequence) {
            part.fail(cause);
        }
    }

    @Override
    public long getLength() {
        close();
        long length = 0;
        for (RequestContent part : sequence) {
            long partLength = part.getLength();
            if (partLength < 0) {
                return -1;
            }
            length += partLength;
        }
        return length;
    }

    @Override
    public boolean isBlocking() {
        return sequence.stream().anyMatch(RequestContent::isBlocking);
    }

    @Override
    public boolean rewind() {
        for (RequestContent part : sequence) {
            if (!part.rewind()) {
                return false;
            }
        }
        current = 0;
        failure = null;
        return true;
    }

    @Override
    public String toString() {
        return "MultiPartContent[" + sequence.size() / 3 + " parts, boundary " + boundary + "]";
    }
}
