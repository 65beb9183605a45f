package io.wharf.webapp.descriptor;

/**
 * A descriptor that cannot be read or merged: its message names the document, the line where
 * there is one, and the problem ({@code "WEB-INF/web.xml line 12: <load-on-startup> 'soon' is
 * not an integer"}). Thrown by {@link DescriptorParser}, {@link FragmentOrdering} and {@link
 * DescriptorMerger} on the caller's thread.
 */
public final class DescriptorException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param message the whole message, document and line included */
    public DescriptorException(String message) {
        super(message);
    }

    /** @param message the whole message; @param cause what the XML reader threw */
    public DescriptorException(String message, Throwable cause) {
        super(message, cause);
    }

    /** @return the message for a problem at {@code line} of {@code source} */
    public static DescriptorException at(String source, int line, String problem) {
        return new DescriptorException(line > 0 ? source + " line " + line + ": " + problem : source + ": " + problem);
    }
}
