package io.wharf.io;

import io.wharf.util.InvocationType;
import io.wharf.util.IteratingCallback;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.buffer.RetainableByteBuffer;

/**
 * Test connection: writes back every byte it reads; at the end of input it shuts its output.
 * Holds a pooled buffer only between a fill that returned bytes and the end of their write.
 */
public class EchoConnection extends AbstractConnection {

    private final ByteBufferPool pool;
    private final int bufferSize;
    private final Echo echo = new Echo();

    public EchoConnection(EndPoint endPoint, ByteBufferPool pool, int bufferSize) {
        super(endPoint, Runnable::run);
        this.pool = pool;
        this.bufferSize = bufferSize;
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
        private RetainableByteBuffer buffer;

        @Override
        protected Action process() throws Throwable {
            if (buffer != null) {
                buffer.release();
                buffer = null;
            }
            RetainableByteBuffer next = pool.acquire(bufferSize, true);
            int filled;
            try {
                filled = getEndPoint().fill(next.byteBuffer());
            } catch (Throwable x) {
                next.release();
                throw x;
            }
            if (filled > 0) {
                buffer = next;
                getEndPoint().write(this, next.byteBuffer());
                return Action.SCHEDULED;
            }
            next.release();
            if (filled == 0) {
                fillInterested();
                return Action.IDLE;
            }
            getEndPoint().shutdownOutput();
            return Action.SUCCEEDED;
        }

        @Override
        protected void onCompleteFailure(Throwable cause) {
            if (buffer != null) {
                buffer.release();
                buffer = null;
            }
            getEndPoint().close(cause);
        }

        @Override
        public InvocationType invocationType() {
            return InvocationType.NON_BLOCKING;
        }
    }
}
