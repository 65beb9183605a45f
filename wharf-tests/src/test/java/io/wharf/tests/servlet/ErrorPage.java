package io.wharf.tests.servlet;

/**
 * One error page of a test application (Servlet 6.1 section 10.9.2): the location in the
 * context that errors with a status, or exceptions of a type and its subclasses, or (when it
 * names neither) every other error are sent to. The Servlet API has no way to register one
 * from code, so each {@link ServletPeer} registers it its own container's way.
 *
 * @param status the status code, or 0
 * @param type the exception type, or null
 * @param location the path in the context, beginning with {@code /}
 */
record ErrorPage(int status, Class<? extends Throwable> type, String location) {

    static ErrorPage forStatus(int status, String location) {
        return new ErrorPage(status, null, location);
    }

    static ErrorPage forException(Class<? extends Throwable> type, String location) {
        return new ErrorPage(0, type, location);
    }

    /** @return the page for every error no other page takes */
    static ErrorPage byDefault(String location) {
        return new ErrorPage(0, null, location);
    }

    boolean isDefault() {
        return status == 0 && type == null;
    }
}
