package io.wharf.webapp.scan;

import java.util.List;
import java.util.Optional;

import io.wharf.webapp.descriptor.MultipartConfig;

/**
 * What the scanner read from one class file: its place in the type hierarchy, the annotation
 * types it carries, whether it refers to javax.servlet, and the values of the servlet
 * annotations on it. Names are binary names with dots ("com.example.Outer$Inner").
 *
 * @param name the class's name
 * @param superName its superclass, empty for java.lang.Object, interfaces and module-info
 * @param interfaces the interfaces it implements directly
 * @param annotations the annotation types on the class itself
 * @param memberAnnotations the annotation types on its fields, methods and constructors, each once
 * @param referencesJavaxServlet whether its class file mentions a {@code javax/servlet/} type
 *     anywhere; looked for in WEB-INF/classes only, where it is the sign of a javax application
 *     (false for a jar's classes: libraries carry optional javax.servlet classes beside their
 *     Jakarta ones, and the search cost a tenth of a first deployment's scan)
 * @param webServlet its {@code @WebServlet}
 * @param webFilter its {@code @WebFilter}
 * @param webListener whether it carries {@code @WebListener}
 * @param multipartConfig its {@code @MultipartConfig}
 * @param servletSecurity its {@code @ServletSecurity}
 */
public record ScannedClass(
    String name,
    Optional<String> superName,
    List<String> interfaces,
    List<String> annotations,
    List<String> memberAnnotations,
    boolean referencesJavaxServlet,
    Optional<WebServletAnnotation> webServlet,
    Optional<WebFilterAnnotation> webFilter,
    boolean webListener,
    Optional<MultipartConfig> multipartConfig,
    Optional<ServletSecurityAnnotation> servletSecurity) {

    /** Copies the lists. */
    public ScannedClass {
        interfaces = List.copyOf(interfaces);
        annotations = List.copyOf(annotations);
        memberAnnotations = List.copyOf(memberAnnotations);
    }
}
