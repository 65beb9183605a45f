package io.wharf.webapp.descriptor;

/**
 * The XML namespace a descriptor's root element is in. Only {@link #JAKARTA_EE} describes a
 * jakarta.servlet application; the others are Java EE's (javax.servlet) and are parsed so that
 * the deployer can refuse the application with a clear message rather than a parse error.
 */
public enum SchemaNamespace {
    /** {@code https://jakarta.ee/xml/ns/jakartaee}: Servlet 5.0, 6.0 and 6.1. */
    JAKARTA_EE("https://jakarta.ee/xml/ns/jakartaee"),
    /** {@code http://xmlns.jcp.org/xml/ns/javaee}: Servlet 3.1 and 4.0 (javax.servlet). */
    JAVA_EE_JCP("http://xmlns.jcp.org/xml/ns/javaee"),
    /** {@code http://java.sun.com/xml/ns/javaee} (Servlet 2.5, 3.0) or {@code http://java.sun.com/xml/ns/j2ee} (2.4): javax.servlet. */
    JAVA_EE_SUN("http://java.sun.com/xml/ns/javaee"),
    /** No namespace: a Servlet 2.3 or older document with a DOCTYPE (javax.servlet). */
    NONE("");

    private final String uri;

    SchemaNamespace(String uri) {
        this.uri = uri;
    }

    /** @return the namespace URI ("" for {@link #NONE}) */
    public String uri() {
        return uri;
    }

    /** @return whether a document in this namespace describes a javax.servlet application */
    public boolean isJavaxServlet() {
        return this != JAKARTA_EE;
    }

    /** @return the namespace of this URI, or null when it is none of the four */
    static SchemaNamespace ofUri(String uri) {
        return switch (uri == null ? "" : uri) {
            case "https://jakarta.ee/xml/ns/jakartaee" -> JAKARTA_EE;
            case "http://xmlns.jcp.org/xml/ns/javaee" -> JAVA_EE_JCP;
            case "http://java.sun.com/xml/ns/javaee", "http://java.sun.com/xml/ns/j2ee" -> JAVA_EE_SUN;
            case "" -> NONE;
            default -> null;
        };
    }
}
