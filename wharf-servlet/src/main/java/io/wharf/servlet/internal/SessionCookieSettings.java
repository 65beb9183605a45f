package io.wharf.servlet.internal;

import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import jakarta.servlet.SessionCookieConfig;

/**
 * The session cookie's settings of one context ({@code session-config/cookie-config},
 * {@code ServletContext.getSessionCookieConfig()}): name {@code JSESSIONID}, the context path,
 * {@code HttpOnly}, and the attributes set. Changeable only while the context is set up.
 *
 * <p><b>Threads.</b> Set on the deploying thread; read by request threads after the start.
 */
final class SessionCookieSettings implements SessionCookieConfig {

    private static final String DOMAIN = "Domain";
    private static final String PATH = "Path";
    private static final String SECURE = "Secure";
    private static final String HTTP_ONLY = "HttpOnly";
    private static final String MAX_AGE = "Max-Age";

    private final ServletApiContext context;
    private final Map<String, String> attributes = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    private volatile String name = "JSESSIONID";

    SessionCookieSettings(ServletApiContext context) {
        this.context = context;
        attributes.put(HTTP_ONLY, "");
    }

    @Override
    public void setName(String name) {
        context.checkConfigurable();
        if (name == null || name.isEmpty() || !name.chars().allMatch(c -> c > 0x20 && c < 0x7f && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0)) {
            throw new IllegalArgumentException("a session cookie name must be a non-empty token: " + name);
        }
        this.name = name;
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public void setDomain(String domain) {
        setAttribute(DOMAIN, domain);
    }

    @Override
    public String getDomain() {
        return getAttribute(DOMAIN);
    }

    @Override
    public void setPath(String path) {
        setAttribute(PATH, path);
    }

    @Override
    public String getPath() {
        return getAttribute(PATH);
    }

    /** @deprecated as in the Servlet API: comments are gone from RFC 6265 cookies */
    @Override
    @Deprecated
    public void setComment(String comment) {
        context.checkConfigurable();
    }

    /** @deprecated as in the Servlet API */
    @Override
    @Deprecated
    public String getComment() {
        return null;
    }

    @Override
    public void setHttpOnly(boolean httpOnly) {
        setAttribute(HTTP_ONLY, httpOnly ? "" : null);
    }

    @Override
    public boolean isHttpOnly() {
        return getAttribute(HTTP_ONLY) != null;
    }

    @Override
    public void setSecure(boolean secure) {
        setAttribute(SECURE, secure ? "" : null);
    }

    @Override
    public boolean isSecure() {
        return getAttribute(SECURE) != null;
    }

    @Override
    public void setMaxAge(int maxAge) {
        setAttribute(MAX_AGE, maxAge < 0 ? null : Integer.toString(maxAge));
    }

    @Override
    public int getMaxAge() {
        String value = getAttribute(MAX_AGE);
        return value == null ? -1 : Integer.parseInt(value);
    }

    @Override
    public void setAttribute(String name, String value) {
        context.checkConfigurable();
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a cookie attribute name must not be empty");
        }
        synchronized (attributes) {
            if (value == null) {
                attributes.remove(name);
            } else {
                if (MAX_AGE.equalsIgnoreCase(name)) {
                    Integer.parseInt(value);
                }
                attributes.put(name, value);
            }
        }
    }

    @Override
    public String getAttribute(String name) {
        synchronized (attributes) {
            return attributes.get(name);
        }
    }

    @Override
    public Map<String, String> getAttributes() {
        synchronized (attributes) {
            return Collections.unmodifiableMap(new TreeMap<>(attributes));
        }
    }

    @Override
    public String toString() {
        return "SessionCookieConfig[" + name + getAttributes().toString().toLowerCase(Locale.ROOT) + "]";
    }
}
