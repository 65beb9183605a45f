package io.wharf.webapp.descriptor;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A {@code <servlet>}: its name, the class or the JSP file that implements it and its settings.
 * A setting the document leaves out is empty, so that merging can tell "not said" from "said
 * false" (Servlet 6.1 section 8.2.3).
 *
 * @param name the servlet name, unique in the application
 * @param className {@code <servlet-class>}, empty for a JSP or a servlet whose class another descriptor gives
 * @param jspFile {@code <jsp-file>}
 * @param initParams {@code <init-param>}s in document order
 * @param loadOnStartup {@code <load-on-startup>}; present and empty-valued in the document means 0
 * @param asyncSupported {@code <async-supported>}
 * @param enabled {@code <enabled>}
 * @param multipartConfig {@code <multipart-config>}
 * @param runAs the role of {@code <run-as>}
 * @param securityRoleRefs {@code <security-role-ref>}s
 */
public record ServletDefinition(
    String name,
    Optional<String> className,
    Optional<String> jspFile,
    Map<String, String> initParams,
    Optional<Integer> loadOnStartup,
    Optional<Boolean> asyncSupported,
    Optional<Boolean> enabled,
    Optional<MultipartConfig> multipartConfig,
    Optional<String> runAs,
    List<SecurityRoleRef> securityRoleRefs) {

    /** Copies the collections. */
    public ServletDefinition {
        initParams = Copies.orderedMap(initParams);
        securityRoleRefs = List.copyOf(securityRoleRefs);
    }

    /** @return a servlet with only a name and a class */
    public static ServletDefinition of(String name, String className) {
        return new ServletDefinition(name, Optional.of(className), Optional.empty(), Map.of(), Optional.empty(),
            Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), List.of());
    }
}
