package io.wharf.servlet.internal;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Sessions in the heap of this node: lost when it stops, as in every container's default.
 * Thread-safe.
 */
final class MemorySessionStore implements SessionStore {

    private final Map<String, ServletSession> sessions = new ConcurrentHashMap<>();

    @Override
    public ServletSession find(String id) {
        return sessions.get(id);
    }

    @Override
    public void add(ServletSession session) {
        sessions.put(session.getId(), session);
    }

    @Override
    public void remove(String id) {
        sessions.remove(id);
    }

    @Override
    public Collection<ServletSession> all() {
        return List.copyOf(sessions.values());
    }
}
