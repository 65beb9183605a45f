package io.wharf.io;

import java.io.IOException;

import io.wharf.util.InvocationType;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.buffer.RetainableByteBuffer;

/** Test client connection: hands every byte it reads to a {@link ReplyCollector}. */
public class ClientTestConnection extends AbstractConnection {

    private final ByteBufferPool pool;
    private final ReplyCollector collector;

    public ClientTestConnection(EndPoint endPoint, ByteBufferPool pool, ReplyCollector collector) {
        super(endPoint, Runnable::run);
        this.pool = pool;
        this.collector = collector;
    }

    @Override
    public void onOpen() {
        fillInterested();
    }

    @Override
    public void onFillable() {
        RetainableByteBuffer buffer = pool.acquire(4096, false);
        try {
            while (true) {
                int filled = getEndPoint().fill(buffer.byteBuffer());
                if (filled > 0) {
                    collector.take(buffer.byteBuffer());
                    buffer.clear();
                } else if (filled == 0) {
                    fillInterested();
                    return;
                } else {
                    getEndPoint().close();
                    return;
                }
            }
        } catch (IOException x) {
            collector.fail(x);
        } finally {
            buffer.release();
        }
    }

    @Override
    public void onClose(Throwable cause) {
        if (cause != null) {
            collector.fail(cause);
        }
    }

    @Override
    public InvocationType invocationType() {
        return InvocationType.NON_BLOCKING;
    }
}
