package io.wharf.websocket.api;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;

import io.wharf.util.Callback;

/**
 * Waits for an asynchronous send, for the blocking views of a {@link Session}: the adapter's
 * blocking sends and the message streams. The waiting thread must be allowed to block (never a
 * selector thread: the write it waits for may need that very thread).
 */
final class BlockingSend {

    private BlockingSend() {
    }

    /**
     * Starts {@code send} and waits until its callback completes.
     *
     * @param what what is sent, for the exception's message ("text message of 12 chars")
     * @throws IOException naming {@code what} and the session's peer, with the failure as its cause
     */
    static void await(Session session, String what, Consumer<Callback> send) throws IOException {
        Callback.Completable done = new Callback.Completable();
        try {
            send.accept(done);
            done.get();
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
            InterruptedIOException interrupted = new InterruptedIOException("interrupted while sending a " + what);
            interrupted.initCause(x);
            throw interrupted;
        } catch (ExecutionException x) {
            throw new IOException("failed to send a " + what + " to " + session.getRemoteAddress() + ": " + x.getCause(), x.getCause());
        } catch (RuntimeException x) {
            throw new IOException("failed to send a " + what + " to " + session.getRemoteAddress() + ": " + x, x);
        }
    }
}
