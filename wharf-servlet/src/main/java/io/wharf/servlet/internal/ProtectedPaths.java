package io.wharf.servlet.internal;

import java.util.Locale;

/**
 * The paths of a context that no client request may reach (Servlet 6.1 section 10.5):
 * {@code /WEB-INF} and {@code /META-INF} and everything under them, in any letter case. A
 * forward or include from the application may still go there (pages kept in WEB-INF are the
 * usual case). Stateless; any thread.
 */
public final class ProtectedPaths {

    private ProtectedPaths() {
    }

    /** @return whether {@code pathInContext} (decoded, starting with {@code /}) is under WEB-INF or META-INF */
    public static boolean isProtected(String pathInContext) {
        String upper = pathInContext.toUpperCase(Locale.ROOT);
        return upper.equals("/WEB-INF") || upper.startsWith("/WEB-INF/") || upper.equals("/META-INF") || upper.startsWith("/META-INF/");
    }
}
