package io.wharf.server;

import java.nio.ByteBuffer;

import io.wharf.io.AbstractConnection;
import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.buffer.RetainableByteBuffer;

/**
 * Test protocol for switches from HTTP/1.1: writes back every byte it reads in upper case,
 * starting with the bytes the HTTP connection had read past the request. One fill and one
 * write at a time, on the selector thread; each pooled buffer is released once its bytes are
 * copied out, so the leak-tracking pool can vouch for the hand-over.
 */
final class UpperCaseEchoConnection extends AbstractConnection implements Connection.UpgradeTo {

    private final ByteBufferPool pool;
    private RetainableByteBuffer prefilled;

    UpperCaseEchoConnection(EndPoint endPoint, ByteBufferPool pool) {
        super(endPoint, Runnable::run);
        this.pool = pool;
    }

    @Override
    public void onUpgradeTo(RetainableByteBuffer prefilled) {
        this.prefilled = prefilled;
    }

    @Override
    public void onOpen() {
        super.onOpen();
        RetainableByteBuffer handed = prefilled;
        prefilled = null;
        if (handed != null && handed.byteBuffer().hasRemaining()) {
            echo(handed);
        } else {
            if (handed != null) {
                handed.release();
            }
            fillInterested();
        }
    }

    @Override
    public void onFillable() {
        RetainableByteBuffer buffer = pool.acquire(1024, true);
        int filled;
        try {
            buffer.byteBuffer().clear().limit(0);
            filled = getEndPoint().fill(buffer.byteBuffer());
        } catch (Throwable x) {
            buffer.release();
            getEndPoint().close(x);
            return;
        }
        if (filled > 0) {
            echo(buffer);
            return;
        }
        buffer.release();
        if (filled == 0) {
            fillInterested();
        } else {
            getEndPoint().shutdownOutput();
        }
    }

    /** Writes {@code bytes} back in upper case, releases them, and reads on when written. */
    private void echo(RetainableByteBuffer bytes) {
        ByteBuffer source = bytes.byteBuffer();
        byte[] upper = new byte[source.remaining()];
        for (int i = 0; i < upper.length; i++) {
            upper[i] = (byte) Character.toUpperCase(source.get());
        }
        bytes.release();
        getEndPoint().write(Callback.from(InvocationType.NON_BLOCKING, this::fillInterested, getEndPoint()::close), ByteBuffer.wrap(upper));
    }

    @Override
    public InvocationType invocationType() {
        return InvocationType.NON_BLOCKING;
    }
}
