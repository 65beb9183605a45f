package io.wharf.servlet.internal;

import java.util.Set;

import jakarta.servlet.SessionTrackingMode;

import io.wharf.http.HttpCookie;
import io.wharf.server.Request;
import io.wharf.server.Response;

/**
 * The session side of one request (Servlet 6.1 sections 7.1 and 7.2): the session id it names —
 * in a cookie, or in a {@code ;jsessionid=} path parameter when URL tracking is on — looked up
 * once; the session it found or made; the cookie that tells the client a new or changed id.
 *
 * <p><b>Threads.</b> One thread at a time, like the request.
 */
final class RequestSession {

    private final ServletExchange exchange;
    private final Request core;
    private ServletSession session;
    private boolean looked;
    private ServletSession found;
    private String requestedId;
    private boolean fromCookie;
    private boolean fromUrl;
    private java.util.Map<ServletApiContext, ServletSession> otherContexts;

    RequestSession(ServletExchange exchange, Request core) {
        this.exchange = exchange;
        this.core = core;
    }

    ServletSession current() {
        return session;
    }

    ServletSession getSession(boolean create) {
        ServletSession current = session;
        if (current != null && current.isValid()) {
            return current;
        }
        session = null;
        ServletSession requested = requested();
        if (requested != null && requested.isValid()) {
            session = requested;
            return requested;
        }
        if (!create) {
            return null;
        }
        if (exchange.response().core().isCommitted()) {
            throw new IllegalStateException("getSession: cannot create a session after the response was committed");
        }
        session = exchange.context().sessions().create(System.currentTimeMillis());
        sendCookie(session);
        return session;
    }

    String changeSessionId() {
        ServletSession current = getSession(false);
        if (current == null) {
            throw new IllegalStateException("changeSessionId: this request has no session");
        }
        exchange.context().sessions().changeId(current);
        sendCookie(current);
        return current.getId();
    }

    private void sendCookie(ServletSession made) {
        if (exchange.context().getEffectiveSessionTrackingModes().contains(SessionTrackingMode.COOKIE)) {
            Response.replaceCookie(exchange.response().core(), exchange.context().sessions().cookie(made.getId(), core.isSecure()));
        }
    }

    /**
     * The session of another context this request was dispatched to (section 7.3): under the same
     * id as this request's own session, which is made first when there is none and {@code create}.
     *
     * @return the target context's session, or null
     */
    ServletSession sessionIn(ServletApiContext target, boolean create) {
        ServletSession own = getSession(create);
        if (own == null) {
            return null;
        }
        if (otherContexts == null) {
            otherContexts = new java.util.HashMap<>();
        }
        ServletSession known = otherContexts.get(target);
        if (known != null && known.isValid()) {
            return known;
        }
        long now = System.currentTimeMillis();
        ServletSession found = target.sessions().find(own.getId(), now);
        if (found == null && create) {
            found = target.sessions().create(now, own.getId());
        }
        if (found != null) {
            otherContexts.put(target, found);
        }
        return found;
    }

    String requestedId() {
        requested();
        return requestedId;
    }

    boolean isRequestedIdValid() {
        ServletSession requested = requested();
        return requested != null && requested.isValid();
    }

    boolean isRequestedIdFromCookie() {
        requested();
        return fromCookie;
    }

    boolean isRequestedIdFromUrl() {
        requested();
        return fromUrl;
    }

    /** @return the session the request names, found once; or null. Of several session cookies, the first with a live session wins. */
    private ServletSession requested() {
        if (looked) {
            return found;
        }
        looked = true;
        Sessions sessions = exchange.context().sessions();
        Set<SessionTrackingMode> modes = exchange.context().getEffectiveSessionTrackingModes();
        long now = System.currentTimeMillis();
        if (modes.contains(SessionTrackingMode.COOKIE)) {
            String name = exchange.context().getSessionCookieConfig().getName();
            for (HttpCookie cookie : Request.getCookies(core)) {
                if (!cookie.getName().equals(name)) {
                    continue;
                }
                if (requestedId == null) {
                    requestedId = cookie.getValue();
                    fromCookie = true;
                }
                ServletSession live = sessions.find(cookie.getValue(), now);
                if (live != null) {
                    requestedId = cookie.getValue();
                    found = live;
                    return live;
                }
            }
        }
        if (requestedId == null && modes.contains(SessionTrackingMode.URL)) {
            String id = urlSessionId(core.getHttpURI().getParam());
            if (id != null) {
                requestedId = id;
                fromUrl = true;
                found = sessions.find(id, now);
            }
        }
        return found;
    }

    /** @return the value of {@code jsessionid=} in a path parameter, or null */
    private static String urlSessionId(String param) {
        if (param == null) {
            return null;
        }
        for (String part : param.split(";")) {
            if (part.regionMatches(true, 0, "jsessionid=", 0, 11)) {
                return part.substring(11);
            }
        }
        return null;
    }
}
