package io.wharf.io.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.channels.ReadPendingException;

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

    private static final VarHandle CALLBACK;

    static {
        try {
            CALLBACK = MethodHandles.lookup().findVarHandle(FillInterest.class, "callback", Callback.class);
        } catch (ReflectiveOperationException x) {
            throw new ExceptionInInitializerError(x);
        }
    }

    private final Registrar registrar;
    @SuppressWarnings("unused") // accessed through CALLBACK
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
        Callback callback = (Callback) CALLBACK.getAndSet(this, null);
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
        Callback callback = (Callback) CALLBACK.getAndSet(this, null);
        if (callback == null) {
            return false;
        }
        callback.failed(cause);
        return true;
    }

    /** @return whether a callback is registered */
    public boolean isInterested() {
        return CALLBACK.getVolatile(this) != null;
    }

    @Override
    public void run() {
        fillable();
    }

    @Override
    public InvocationType invocationType() {
        Callback callback = (Callback) CALLBACK.getVolatile(this);
        return callback == null ? InvocationType.NON_BLOCKING : callback.invocationType();
    }

    @Override
    public String toString() {
        return "FillInterest@" + Integer.toHexString(hashCode()) + "{" + CALLBACK.getVolatile(this) + "}";
    }
}
