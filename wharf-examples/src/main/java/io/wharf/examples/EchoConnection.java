package io.wharf.examples;

import io.wharf.io.AbstractConnection;
import io.wharf.io.EndPoint;
import io.wharf.util.InvocationType;
import io.wharf.util.IteratingCallback;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.buffer.RetainableByteBuffer;

/**
 * Writes back every byte it reads, and shuts its output when the peer shuts its own.
 *
 * <p>It never blocks, so it runs on the selector thread that found it readable. It borrows
 * a pooled buffer only while bytes are in flight: fill, write them back, release; an idle
 * echo connection holds no buffer. The loop is an {@link IteratingCallback}: one
 * fill-and-write per step, no recursion when writes complete at once.
 */
public final class EchoConnection extends AbstractConnection {

    private final ByteBufferPool pool;
    private final Echo echo = new Echo();

    public EchoConnection(EndPoint endPoint, ByteBufferPool pool) {
        super(endPoint, Runnable::run);
        this.pool = pool;
    }

    @Override
    public void onOpen() {
        fillInterested();
    }

    @Override
    public void onFillable() {
        echo.iterate();
    }

    @Override
    public InvocationType invocationType() {
        return InvocationType.NON_BLOCKING;
    }

    private final class Echo extends IteratingCallback {
        private RetainableByteBuffer inFlight;

        @Override
        protected Action process() throws Throwable {
            releaseInFlight();
            RetainableByteBuffer buffer = pool.acquire(4096, true);
            int filled;
            try {
                filled = getEndPoint().fill(buffer.byteBuffer());
            } catch (Throwable x) {
                buffer.release();
                throw x;
            }
            if (filled > 0) {
                inFlight = buffer;
                getEndPoint().write(this, buffer.byteBuffer());
                return Action.SCHEDULED;
            }
            buffer.release();
            if (filled == 0) {
                fillInterested();
                return Action.IDLE;
            }
            getEndPoint().shutdownOutput();
            return Action.SUCCEEDED;
        }

        private void releaseInFlight() {
            if (inFlight != null) {
                inFlight.release();
                inFlight = null;
            }
        }

        @Override
        protected void onCompleteFailure(Throwable cause) {
            releaseInFlight();
            getEndPoint().close(cause);
        }

        @Override
        public InvocationType invocationType() {
            return InvocationType.NON_BLOCKING;
        }
    }
}
