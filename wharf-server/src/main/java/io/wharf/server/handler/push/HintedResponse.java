package io.wharf.server.handler.push;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import io.wharf.http.HttpFields;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;

/**
 * The response of a request whose 103 Early Hints are being written: the child handler may
 * write at once, but its writes (and the end of the exchange) wait until the 103 is out, since
 * a response takes one write at a time. The 103's write completes this object as a callback.
 *
 * <p><b>Threads.</b> The 103 completes on the connection's thread or inline; writes come from
 * the child's thread. Deferred work runs on the thread that completes the 103, once; a lock
 * guards the short list of work waiting (requests with hints only, never the plain path).
 */
final class HintedResponse extends Response.Wrapper implements Callback {

    private boolean hinted;
    private List<Runnable> waiting = new ArrayList<>(2);

    HintedResponse(Request request, Response wrapped) {
        super(request, wrapped);
    }

    /** Runs {@code task} now if the 103 is out, else once it is. */
    void afterHint(Runnable task) {
        synchronized (this) {
            if (!hinted) {
                waiting.add(task);
                return;
            }
        }
        task.run();
    }

    @Override
    public void write(boolean last, ByteBuffer buffer, Callback callback) {
        afterHint(() -> super.write(last, buffer, callback));
    }

    @Override
    public void writeInterim(int status, HttpFields headers, Callback callback) {
        afterHint(() -> super.writeInterim(status, headers, callback));
    }

    /** The 103 is out. */
    @Override
    public void succeeded() {
        release();
    }

    /** The 103 failed (the connection is failing): what waits goes on and fails on its own. */
    @Override
    public void failed(Throwable cause) {
        release();
    }

    private void release() {
        List<Runnable> tasks;
        synchronized (this) {
            hinted = true;
            tasks = waiting;
            waiting = null;
        }
        for (Runnable task : tasks) {
            task.run();
        }
    }

    @Override
    public InvocationType invocationType() {
        return InvocationType.NON_BLOCKING;
    }
}
