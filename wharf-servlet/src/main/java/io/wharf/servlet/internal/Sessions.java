package io.wharf.servlet.internal;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;

import jakarta.servlet.SessionCookieConfig;
import jakarta.servlet.http.HttpSessionEvent;
import jakarta.servlet.http.HttpSessionIdListener;
import jakarta.servlet.http.HttpSessionListener;

import io.wharf.http.HttpCookie;
import io.wharf.util.thread.Scheduler;

/**
 * The sessions of one context (Servlet 6.1 chapter 7): makes them with ids of 192 random bits
 * from {@link SecureRandom}, finds them by the id a request names, expires them (on access and
 * by a scavenger every {@link #SCAVENGE_SECONDS} seconds), invalidates them, changes their ids,
 * and tells the session listeners. The sessions live in a {@link SessionStore}.
 *
 * <p><b>Threads.</b> Any request thread, and the scheduler's for the scavenger; thread-safe.
 */
final class Sessions {

    /** How often the scavenger looks for expired sessions. */
    static final int SCAVENGE_SECONDS = 30;

    private final ServletApiContext context;
    private final SessionStore store = new MemorySessionStore();
    private final SecureRandom random = new SecureRandom();
    private volatile Scheduler.Task scavenger;

    Sessions(ServletApiContext context) {
        this.context = context;
    }

    ServletApiContext context() {
        return context;
    }

    /** Starts the scavenger on {@code scheduler}. */
    void start(Scheduler scheduler) {
        scheduleScavenge(scheduler);
    }

    private void scheduleScavenge(Scheduler scheduler) {
        try {
            scavenger = scheduler.schedule(() -> {
                scavenge(System.currentTimeMillis());
                scheduleScavenge(scheduler);
            }, SCAVENGE_SECONDS, java.util.concurrent.TimeUnit.SECONDS);
        } catch (java.util.concurrent.RejectedExecutionException stopped) {
            scavenger = null;
        }
    }

    /** Stops the scavenger and ends every session, as when the node stops (they are in memory). */
    void stop() {
        Scheduler.Task task = scavenger;
        scavenger = null;
        if (task != null) {
            task.cancel();
        }
        for (ServletSession session : store.all()) {
            invalidate(session);
        }
    }

    /** Expires the sessions whose time is up. */
    void scavenge(long now) {
        for (ServletSession session : store.all()) {
            if (session.isExpired(now)) {
                invalidate(session);
            }
        }
    }

    /** @return the valid, unexpired session with {@code id}, accessed now; or null */
    ServletSession find(String id, long now) {
        ServletSession session = store.find(id);
        if (session == null) {
            return null;
        }
        if (!session.isValid() || session.isExpired(now)) {
            invalidate(session);
            return null;
        }
        session.access(now);
        return session;
    }

    ServletSession create(long now) {
        return create(now, newId());
    }

    /** Makes a session under an id another context of the server already gave the client (cross-context dispatch). */
    ServletSession create(long now, String id) {
        ServletSession session = new ServletSession(this, id, now, context.getSessionTimeout() * 60);
        store.add(session);
        if (context.listeners().has(HttpSessionListener.class)) {
            HttpSessionEvent event = new HttpSessionEvent(session);
            context.listeners().fire(HttpSessionListener.class, listener -> listener.sessionCreated(event));
        }
        return session;
    }

    /** Ends a session: listeners hear of it while it is still readable (section 7.4), then its attributes are unbound. */
    void invalidate(ServletSession session) {
        if (!session.beginEnd()) {
            return;
        }
        store.remove(session.getId());
        try {
            if (context.listeners().has(HttpSessionListener.class)) {
                HttpSessionEvent event = new HttpSessionEvent(session);
                context.listeners().fireReversed(HttpSessionListener.class, listener -> listener.sessionDestroyed(event));
            }
            session.clearAttributes();
        } finally {
            session.markInvalid();
        }
    }

    /** Gives {@code session} a new id (session fixation defence, {@code changeSessionId}). @return the old id */
    String changeId(ServletSession session) {
        String old = session.getId();
        store.remove(old);
        session.setId(newId());
        store.add(session);
        if (context.listeners().has(HttpSessionIdListener.class)) {
            HttpSessionEvent event = new HttpSessionEvent(session);
            context.listeners().fire(HttpSessionIdListener.class, listener -> listener.sessionIdChanged(event, old));
        }
        return old;
    }

    private String newId() {
        byte[] bytes = new byte[24];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** @return the cookie that tells the client its session id, from the context's session cookie config */
    HttpCookie cookie(String id, boolean secureRequest) {
        SessionCookieConfig config = context.getSessionCookieConfig();
        HttpCookie.Builder builder = HttpCookie.build(config.getName(), id);
        String path = config.getPath();
        builder.path(path != null ? path : context.getContextPath().isEmpty() ? "/" : context.getContextPath());
        if (config.getDomain() != null) {
            builder.domain(config.getDomain());
        }
        if (config.getMaxAge() >= 0) {
            builder.maxAge(config.getMaxAge());
        }
        builder.httpOnly(config.isHttpOnly());
        builder.secure(config.isSecure() || secureRequest);
        for (Map.Entry<String, String> attribute : config.getAttributes().entrySet()) {
            String name = attribute.getKey();
            switch (name.toLowerCase(java.util.Locale.ROOT)) {
                case "domain", "path", "max-age", "httponly", "secure" -> {
                    // Set above from their own getters.
                }
                case "samesite" -> builder.sameSite(HttpCookie.SameSite.from(attribute.getValue()));
                case "partitioned" -> builder.partitioned(true);
                default -> builder.attribute(name, attribute.getValue());
            }
        }
        return builder.build();
    }
}
