package io.wharf.io;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;

/** Test helper: gathers the bytes a client connection receives until it has the expected count. */
public final class ReplyCollector {

    private final int expected;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final CompletableFuture<String> text = new CompletableFuture<>();

    public ReplyCollector(int expected) {
        this.expected = expected;
    }

    /** Takes the bytes of {@code buffer}, moving its position. */
    public synchronized void take(ByteBuffer buffer) {
        while (buffer.hasRemaining()) {
            bytes.write(buffer.get());
        }
        if (bytes.size() >= expected) {
            text.complete(bytes.toString(StandardCharsets.UTF_8));
        }
    }

    public void fail(Throwable cause) {
        text.completeExceptionally(cause);
    }

    public CompletableFuture<String> text() {
        return text;
    }
}
