package io.wharf.servlet.internal;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.servlet.ServletException;

/**
 * The error pages of one context (Servlet 6.1 section 10.9.2): locations by exception type, by
 * status code, and a default one. An exception finds the page of its class or the nearest
 * superclass; failing that, the cause of a {@link ServletException} is tried the same way;
 * failing that, the status (500 for an exception) and then the default page apply.
 *
 * <p><b>Threads.</b> Pages may be added at any time; looked up by request threads.
 */
public final class ErrorPages {

    private final Map<Integer, String> byStatus = new ConcurrentHashMap<>();
    private final Map<String, String> byException = new ConcurrentHashMap<>();
    private volatile String defaultPage;

    /** Sends errors with {@code status} to {@code location}, a path in the context. */
    public void add(int status, String location) {
        if (status < 400 || status > 599) {
            throw new IllegalArgumentException("an error page is for a status from 400 to 599, not " + status);
        }
        byStatus.put(status, checked(location));
    }

    /** Sends exceptions of {@code exceptionType} (a class name) and its subclasses to {@code location}. */
    public void add(String exceptionType, String location) {
        byException.put(exceptionType, checked(location));
    }

    /** Sends every error no other page takes to {@code location}. */
    public void setDefault(String location) {
        defaultPage = checked(location);
    }

    private static String checked(String location) {
        if (location == null || !location.startsWith("/")) {
            throw new IllegalArgumentException("an error page location must start with '/': " + location);
        }
        return location;
    }

    /** @return whether no page is configured */
    public boolean isEmpty() {
        return byStatus.isEmpty() && byException.isEmpty() && defaultPage == null;
    }

    /**
     * An error page an exception found, and the exception that matched it: the one thrown, or
     * the root cause of a {@link ServletException}, which the error attributes then describe.
     */
    public record Found(String location, Throwable exception) {
    }

    /** @return the page for an exception, or null (the caller then tries the status) */
    public Found forException(Throwable failure) {
        if (byException.isEmpty()) {
            return null;
        }
        Throwable current = failure;
        while (current != null) {
            for (Class<?> type = current.getClass(); type != null && type != Object.class; type = type.getSuperclass()) {
                String location = byException.get(type.getName());
                if (location != null) {
                    return new Found(location, current);
                }
            }
            current = current instanceof ServletException servletException ? servletException.getRootCause() : null;
        }
        return null;
    }

    /** @return the location for a status, the default page, or null */
    public String forStatus(int status) {
        String location = byStatus.get(status);
        return location != null ? location : defaultPage;
    }
}
