package io.wharf.servlet.internal;


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
        // Asked for every request: compared in place, without an upper-cased copy of the path.
        return under(pathInContext, "/WEB-INF") || under(pathInContext, "/META-INF");
    }

    /** @return whether {@code path} is {@code directory} or below it, in any letter case */
    private static boolean under(String path, String directory) {
        int length = directory.length();
        return path.regionMatches(true, 0, directory, 0, length) && (path.length() == length || path.charAt(length) == '/');
    }
}
