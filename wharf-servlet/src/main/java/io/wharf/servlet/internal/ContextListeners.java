package io.wharf.servlet.internal;

import java.util.ArrayList;
import java.util.EventListener;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import jakarta.servlet.ServletContextAttributeListener;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.ServletRequestAttributeListener;
import jakarta.servlet.ServletRequestListener;
import jakarta.servlet.http.HttpSessionAttributeListener;
import jakarta.servlet.http.HttpSessionIdListener;
import jakarta.servlet.http.HttpSessionListener;

/**
 * The event listeners of one context (Servlet 6.1 chapter 11), by kind, in the order they were
 * added. A listener of several kinds is in every list it belongs to. Context listeners hear of
 * the end in the reverse order (section 11.3.2).
 *
 * <p><b>Threads.</b> Added on the deploying thread; fired from any thread (copy-on-write lists).
 */
public final class ContextListeners {

    /** The listener interfaces a context accepts (section 11.2, {@code ServletContext.addListener}). */
    public static final List<Class<? extends EventListener>> KINDS = List.of(
        ServletContextListener.class, ServletContextAttributeListener.class, ServletRequestListener.class,
        ServletRequestAttributeListener.class, HttpSessionListener.class, HttpSessionAttributeListener.class,
        HttpSessionIdListener.class);

    private final List<EventListener> all = new CopyOnWriteArrayList<>();

    /** @return whether {@code type} is a listener kind a context accepts */
    public static boolean isListenerKind(Class<?> type) {
        for (Class<? extends EventListener> kind : KINDS) {
            if (kind.isAssignableFrom(type)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Adds a listener.
     *
     * @throws IllegalArgumentException when it is of no kind a context accepts
     */
    void add(EventListener listener) {
        if (!isListenerKind(listener.getClass())) {
            throw new IllegalArgumentException(listener.getClass().getName() + " implements none of the listener interfaces "
                + "a servlet context accepts (Servlet 6.1 section 11.2)");
        }
        all.add(listener);
    }

    /** @return the listeners of one kind, in order */
    <L> List<L> of(Class<L> kind) {
        List<L> listeners = null;
        for (EventListener listener : all) {
            if (kind.isInstance(listener)) {
                if (listeners == null) {
                    listeners = new ArrayList<>(2);
                }
                listeners.add(kind.cast(listener));
            }
        }
        return listeners == null ? List.of() : listeners;
    }

    /** @return whether there is a listener of {@code kind}, cheaply, for the request path */
    boolean has(Class<?> kind) {
        for (EventListener listener : all) {
            if (kind.isInstance(listener)) {
                return true;
            }
        }
        return false;
    }

    /** Tells every listener of {@code kind}, in order. */
    <L> void fire(Class<L> kind, Consumer<L> event) {
        for (EventListener listener : all) {
            if (kind.isInstance(listener)) {
                event.accept(kind.cast(listener));
            }
        }
    }

    /** Tells every listener of {@code kind}, in reverse order. */
    <L> void fireReversed(Class<L> kind, Consumer<L> event) {
        List<L> listeners = of(kind);
        for (int i = listeners.size() - 1; i >= 0; i--) {
            event.accept(listeners.get(i));
        }
    }

    /** @return how many listeners there are, to {@link #truncate} to later */
    int size() {
        return all.size();
    }

    /** Forgets the listeners added after the first {@code size}: those a start added, when the context stops. */
    void truncate(int size) {
        while (all.size() > size) {
            all.remove(all.size() - 1);
        }
    }
}
