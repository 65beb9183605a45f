package io.wharf.util.thread;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Test helper: captures what is written to System.err (where slf4j-simple logs, looking the
 * stream up at each write) while open, and also passes it on.
 */
final class CapturedErr implements AutoCloseable {

    private final PrintStream original = System.err;
    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

    CapturedErr() {
        System.setErr(new PrintStream(new TeeStream(), true, StandardCharsets.UTF_8));
    }

    String text() {
        synchronized (captured) {
            return captured.toString(StandardCharsets.UTF_8);
        }
    }

    @Override
    public void close() {
        System.setErr(original);
    }

    private final class TeeStream extends java.io.OutputStream {
        @Override
        public void write(int b) {
            synchronized (captured) {
                captured.write(b);
            }
            original.write(b);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) {
            synchronized (captured) {
                captured.write(bytes, offset, length);
            }
            original.write(bytes, offset, length);
        }
    }
}
