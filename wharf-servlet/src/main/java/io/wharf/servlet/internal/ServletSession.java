package io.wharf.servlet.internal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpSession;
import jakarta.servlet.http.HttpSessionAttributeListener;
import jakarta.servlet.http.HttpSessionBindingEvent;
import jakarta.servlet.http.HttpSessionBindingListener;

/**
 * One {@link HttpSession} (Servlet 6.1 chapter 7): its id, times, timeout and attributes, with
 * the binding and attribute events. {@link Sessions} makes, finds, expires and invalidates it.
 *
 * <p><b>Threads.</b> Concurrent requests of one client share it; attributes are a concurrent
 * map and the times are volatile. Invalidation happens once ({@link #markInvalid()}).
 */
final class ServletSession implements HttpSession {

    private final Sessions sessions;
    private final long creationTime;
    private final Map<String, Object> attributes = new ConcurrentHashMap<>();
    private volatile String id;
    private volatile long lastAccessedTime;
    private volatile long accessedBefore;
    private volatile int maxInactiveSeconds;
    private volatile boolean valid = true;
    private boolean ending;
    private volatile boolean fresh = true;

    ServletSession(Sessions sessions, String id, long now, int maxInactiveSeconds) {
        this.sessions = sessions;
        this.id = id;
        this.creationTime = now;
        this.lastAccessedTime = now;
        this.accessedBefore = now;
        this.maxInactiveSeconds = maxInactiveSeconds;
    }

    /** A request that named this session began: it is no longer new, and its time moves on. */
    void access(long now) {
        fresh = false;
        accessedBefore = lastAccessedTime;
        lastAccessedTime = now;
    }

    /** @return whether it timed out at {@code now} */
    boolean isExpired(long now) {
        int seconds = maxInactiveSeconds;
        return seconds > 0 && now - lastAccessedTime > seconds * 1000L;
    }

    boolean isValid() {
        return valid;
    }

    /**
     * @return true for the one caller that ends the session; it stays valid until
     *     {@link #markInvalid()}, so that the listeners told of its end can still read it
     */
    synchronized boolean beginEnd() {
        if (ending || !valid) {
            return false;
        }
        ending = true;
        return true;
    }

    /** The session is over: every method but the id and the timeout fails from now on. */
    void markInvalid() {
        valid = false;
    }

    void setId(String id) {
        this.id = id;
    }

    /** Removes every attribute with its events, when the session ends. */
    void clearAttributes() {
        for (String name : new ArrayList<>(attributes.keySet())) {
            removeAttributeQuietly(name);
        }
    }

    private void checkValid(String method) {
        if (!valid) {
            throw new IllegalStateException(method + ": session " + id + " was invalidated");
        }
    }

    @Override
    public long getCreationTime() {
        checkValid("getCreationTime");
        return creationTime;
    }

    @Override
    public String getId() {
        return id;
    }

    /** The time of the request before the current one (section 7.6: the current request does not count). */
    @Override
    public long getLastAccessedTime() {
        checkValid("getLastAccessedTime");
        return accessedBefore;
    }

    @Override
    public ServletContext getServletContext() {
        return sessions.context();
    }

    @Override
    public void setMaxInactiveInterval(int interval) {
        maxInactiveSeconds = interval;
    }

    @Override
    public int getMaxInactiveInterval() {
        return maxInactiveSeconds;
    }

    @Override
    public Object getAttribute(String name) {
        checkValid("getAttribute");
        return attributes.get(name);
    }

    @Override
    public Enumeration<String> getAttributeNames() {
        checkValid("getAttributeNames");
        return Collections.enumeration(new ArrayList<>(attributes.keySet()));
    }

    @Override
    public void setAttribute(String name, Object value) {
        if (name == null) {
            throw new IllegalArgumentException("session attribute name must not be null");
        }
        checkValid("setAttribute");
        if (value == null) {
            removeAttribute(name);
            return;
        }
        if (value instanceof HttpSessionBindingListener binding) {
            binding.valueBound(new HttpSessionBindingEvent(this, name, value));
        }
        Object previous = attributes.put(name, value);
        if (previous != value && previous instanceof HttpSessionBindingListener binding) {
            binding.valueUnbound(new HttpSessionBindingEvent(this, name, previous));
        }
        ContextListeners listeners = sessions.context().listeners();
        if (listeners.has(HttpSessionAttributeListener.class)) {
            HttpSessionBindingEvent event = new HttpSessionBindingEvent(this, name, previous == null ? value : previous);
            listeners.fire(HttpSessionAttributeListener.class,
                previous == null ? listener -> listener.attributeAdded(event) : listener -> listener.attributeReplaced(event));
        }
    }

    @Override
    public void removeAttribute(String name) {
        checkValid("removeAttribute");
        removeAttributeQuietly(name);
    }

    private void removeAttributeQuietly(String name) {
        Object previous = attributes.remove(name);
        if (previous == null) {
            return;
        }
        if (previous instanceof HttpSessionBindingListener binding) {
            binding.valueUnbound(new HttpSessionBindingEvent(this, name, previous));
        }
        ContextListeners listeners = sessions.context().listeners();
        if (listeners.has(HttpSessionAttributeListener.class)) {
            HttpSessionBindingEvent event = new HttpSessionBindingEvent(this, name, previous);
            listeners.fire(HttpSessionAttributeListener.class, listener -> listener.attributeRemoved(event));
        }
    }

    @Override
    public void invalidate() {
        checkValid("invalidate");
        sessions.invalidate(this);
    }

    @Override
    public boolean isNew() {
        checkValid("isNew");
        return fresh;
    }

    @Override
    public String toString() {
        return "HttpSession[" + id + (valid ? "" : ",invalid") + "]";
    }
}
