package io.wharf.servlet.internal;

import java.util.Collection;

/**
 * Where a context keeps its sessions: the seam between the servlet container's
 * {@link ServletSession} and the store behind it. Today's one implementation is
 * {@link MemorySessionStore}; the server's session layer (a cache over a data store: files,
 * JDBC, Redis, MongoDB) is to replace it behind this interface.
 *
 * <p><b>Threads.</b> Any request thread, concurrently; implementations are thread-safe.
 */
interface SessionStore {

    /** @return the session with {@code id}, or null when there is none (or it expired or was invalidated) */
    ServletSession find(String id);

    /** Keeps a session made by the context, under its id. */
    void add(ServletSession session);

    /** Forgets the session under {@code id}, after an invalidation or an id change. */
    void remove(String id);

    /** @return the sessions kept, a snapshot, for the scavenger and for stopping */
    Collection<ServletSession> all();
}
