package io.wharf.server.handler;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import io.wharf.server.Handler;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;

/**
 * Test fixture: a wrapper that tells when requests have passed through its child completely
 * — callback completed, handler thrown or request passed — since a client may read a
 * response before the handlers below finished their bookkeeping.
 *
 * <p>Public for the request log tests in {@code handler.log}.
 */
public final class CompletionCounter extends Handler.Wrapper {

    private final Semaphore completed = new Semaphore(0);

    public CompletionCounter(Handler handler) {
        super(handler);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        Callback counting = new Callback() {
            @Override
            public void succeeded() {
                callback.succeeded();
                completed.release();
            }

            @Override
            public void failed(Throwable cause) {
                callback.failed(cause);
                completed.release();
            }

            @Override
            public InvocationType invocationType() {
                return callback.invocationType();
            }
        };
        boolean taken;
        try {
            taken = super.handle(request, response, counting);
        } catch (Throwable x) {
            completed.release();
            throw x;
        }
        if (!taken) {
            completed.release();
        }
        return taken;
    }

    /** Waits until {@code requests} more requests have passed through. */
    public void await(int requests, Duration timeout) throws InterruptedException {
        if (!completed.tryAcquire(requests, timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("fewer than " + requests + " requests completed within " + timeout
                    + " (" + completed.availablePermits() + " did)");
        }
    }
}
