package io.wharf.io.internal;

import java.nio.channels.ReadPendingException;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;

import io.wharf.util.Callback;
import io.wharf.util.Invocable;
import io.wharf.util.InvocationType;

/**
 * The one pending "tell me when I can read" of an endpoint.
 *
 * <p>A connection registers a callback from any thread; the endpoint then arranges to learn
 * of readability ({@link Registrar#needsFillInterest()}, for example adding OP_READ to the
 * selection key). When the selector reports it, this object is itself the task the
 * selector produces: {@link #run()} takes the callback and succeeds it, so the task's
 * invocation type is the callback's. At most one callback is registered; the hand-over is
 * a single atomic swap, so a callback is completed exactly once (fillable, failed or closed).
 */
public final class FillInterest implements Invocable.Task {

    /** How the endpoint starts watching for readability. */
    public interface Registrar {
        /** Called after a callback was registered; may call {@link #fillable()} at once. */
        void needsFillInterest() throws Exception;
    }

    /**
     * The field's atomic operations. A field updater rather than a {@code VarHandle}: a
     * VarHandle's operation is two more calls deep, and on the server's HTTP/1.1 path the
     * registration sits so deep in the selector's compiled loop that C2 stopped inlining there
     * ("inlining too deep") and ran the compare-and-set as a call through its method handles:
     * 7 % of the server's CPU samples under 256 connections, against 0.3 % before the refactor.
     */
    private static final AtomicReferenceFieldUpdater<FillInterest, Callback> CALLBACK =
            AtomicReferenceFieldUpdater.newUpdater(FillInterest.class, Callback.class, "callback");

    private final Registrar registrar;
    /** Read directly; changed through {@code CALLBACK}. */
    private volatile Callback callback;

    public FillInterest(Registrar registrar) {
        this.registrar = registrar;
    }

    /**
     * @throws ReadPendingException when a callback is already registered
     */
    public void register(Callback callback) {
        if (!tryRegister(callback)) {
            throw new ReadPendingException();
        }
    }

    /** @return false when a callback is already registered */
    public boolean tryRegister(Callback callback) {
        if (callback == null) {
            throw new IllegalArgumentException("null fill interest callback");
        }
        if (!CALLBACK.compareAndSet(this, null, callback)) {
            return false;
        }
        try {
            registrar.needsFillInterest();
        } catch (Throwable x) {
            onFail(x);
        }
        return true;
    }

    /**
     * Completes the registered callback, if any, as fillable.
     *
     * @return whether a callback was registered
     */
    public boolean fillable() {
        Callback callback = CALLBACK.getAndSet(this, null);
        if (callback == null) {
            return false;
        }
        callback.succeeded();
        return true;
    }

    /**
     * Fails the registered callback, if any.
     *
     * @return whether a callback was registered
     */
    public boolean onFail(Throwable cause) {
        Callback callback = CALLBACK.getAndSet(this, null);
        if (callback == null) {
            return false;
        }
        callback.failed(cause);
        return true;
    }

    /** @return whether a callback is registered */
    public boolean isInterested() {
        return callback != null;
    }

    @Override
    public void run() {
        fillable();
    }

    @Override
    public InvocationType invocationType() {
        Callback callback = this.callback;
        return callback == null ? InvocationType.NON_BLOCKING : callback.invocationType();
    }

    @Override
    public String toString() {
        return "FillInterest@" + Integer.toHexString(hashCode()) + "{" + callback + "}";
    }
}
