package io.wharf.webapp.descriptor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One web.xml, one web-fragment.xml, the entries of a set of annotated classes, or the
 * effective descriptor merged from them: everything Servlet 6.1 lets these say, read and
 * trimmed, in document order. Made by {@link DescriptorParser}, by the annotation scanner's
 * conversion and by {@link DescriptorMerger}; immutable, so any thread may read it.
 *
 * <p>A document in a Java EE namespace ({@link SchemaNamespace#isJavaxServlet()}) is read all
 * the same; the deployer refuses the application, not the parser.
 *
 * @param source the document's name in messages ("WEB-INF/web.xml", "WEB-INF/lib/a.jar!/META-INF/web-fragment.xml")
 * @param kind which document it is
 * @param namespace the root element's namespace
 * @param version the root's version attribute ("6.1"), "" when it has none
 * @param metadataComplete the root's metadata-complete attribute
 * @param displayName {@code <display-name>}
 * @param distributable whether {@code <distributable/>} is present
 * @param fragmentName a fragment's {@code <name>}
 * @param ordering a fragment's {@code <ordering>}, {@link RelativeOrdering#NONE} when it has none
 * @param absoluteOrdering web.xml's {@code <absolute-ordering>}
 * @param contextParams {@code <context-param>}s, name to value in document order
 * @param servlets {@code <servlet>}s
 * @param servletMappings {@code <servlet-mapping>}s in document order
 * @param filters {@code <filter>}s
 * @param filterMappings {@code <filter-mapping>}s in document order
 * @param listeners {@code <listener-class>}es in document order
 * @param mimeMappings extension to MIME type
 * @param localeEncodingMappings locale to character encoding
 * @param sessionConfig {@code <session-config>}
 * @param errorPages {@code <error-page>}s
 * @param welcomeFiles the {@code <welcome-file>}s of every {@code <welcome-file-list>}, in order
 * @param securityConstraints {@code <security-constraint>}s
 * @param loginConfig {@code <login-config>}
 * @param securityRoles the {@code <role-name>}s of {@code <security-role>}s
 * @param denyUncoveredHttpMethods whether {@code <deny-uncovered-http-methods/>} is present
 * @param jspConfig {@code <jsp-config>}
 * @param envEntries {@code <env-entry>}s
 * @param resourceRefs {@code <resource-ref>}s
 * @param requestCharacterEncoding {@code <request-character-encoding>}
 * @param responseCharacterEncoding {@code <response-character-encoding>}
 * @param defaultContextPath {@code <default-context-path>}
 */
public record WebDescriptor(
    String source,
    DescriptorKind kind,
    SchemaNamespace namespace,
    String version,
    boolean metadataComplete,
    Optional<String> displayName,
    boolean distributable,
    Optional<String> fragmentName,
    RelativeOrdering ordering,
    Optional<AbsoluteOrdering> absoluteOrdering,
    Map<String, String> contextParams,
    List<ServletDefinition> servlets,
    List<ServletMapping> servletMappings,
    List<FilterDefinition> filters,
    List<FilterMapping> filterMappings,
    List<String> listeners,
    Map<String, String> mimeMappings,
    Map<String, String> localeEncodingMappings,
    Optional<SessionConfig> sessionConfig,
    List<ErrorPage> errorPages,
    List<String> welcomeFiles,
    List<SecurityConstraint> securityConstraints,
    Optional<LoginConfig> loginConfig,
    List<String> securityRoles,
    boolean denyUncoveredHttpMethods,
    Optional<JspConfig> jspConfig,
    List<EnvEntry> envEntries,
    List<ResourceRef> resourceRefs,
    Optional<String> requestCharacterEncoding,
    Optional<String> responseCharacterEncoding,
    Optional<String> defaultContextPath) {

    /** Copies the collections. */
    public WebDescriptor {
        contextParams = Copies.orderedMap(contextParams);
        servlets = List.copyOf(servlets);
        servletMappings = List.copyOf(servletMappings);
        filters = List.copyOf(filters);
        filterMappings = List.copyOf(filterMappings);
        listeners = List.copyOf(listeners);
        mimeMappings = Copies.orderedMap(mimeMappings);
        localeEncodingMappings = Copies.orderedMap(localeEncodingMappings);
        errorPages = List.copyOf(errorPages);
        welcomeFiles = List.copyOf(welcomeFiles);
        securityConstraints = List.copyOf(securityConstraints);
        securityRoles = List.copyOf(securityRoles);
        envEntries = List.copyOf(envEntries);
        resourceRefs = List.copyOf(resourceRefs);
    }

    /** @return the servlet of this name, if declared here */
    public Optional<ServletDefinition> servlet(String name) {
        return servlets.stream().filter(servlet -> servlet.name().equals(name)).findFirst();
    }

    /** @return the filter of this name, if declared here */
    public Optional<FilterDefinition> filter(String name) {
        return filters.stream().filter(filter -> filter.name().equals(name)).findFirst();
    }

    /** @return a builder holding this descriptor's values */
    public Builder toBuilder() {
        Builder builder = new Builder(source, kind, namespace, version);
        builder.metadataComplete = metadataComplete;
        builder.displayName = displayName;
        builder.distributable = distributable;
        builder.fragmentName = fragmentName;
        builder.ordering = ordering;
        builder.absoluteOrdering = absoluteOrdering;
        builder.contextParams.putAll(contextParams);
        builder.servlets.addAll(servlets);
        builder.servletMappings.addAll(servletMappings);
        builder.filters.addAll(filters);
        builder.filterMappings.addAll(filterMappings);
        builder.listeners.addAll(listeners);
        builder.mimeMappings.putAll(mimeMappings);
        builder.localeEncodingMappings.putAll(localeEncodingMappings);
        builder.sessionConfig = sessionConfig;
        builder.errorPages.addAll(errorPages);
        builder.welcomeFiles.addAll(welcomeFiles);
        builder.securityConstraints.addAll(securityConstraints);
        builder.loginConfig = loginConfig;
        builder.securityRoles.addAll(securityRoles);
        builder.denyUncoveredHttpMethods = denyUncoveredHttpMethods;
        builder.jspConfig = jspConfig;
        builder.envEntries.addAll(envEntries);
        builder.resourceRefs.addAll(resourceRefs);
        builder.requestCharacterEncoding = requestCharacterEncoding;
        builder.responseCharacterEncoding = responseCharacterEncoding;
        builder.defaultContextPath = defaultContextPath;
        return builder;
    }

    /** @return an empty builder for a descriptor of this source and kind, in the Jakarta namespace at version 6.1 */
    public static Builder builder(String source, DescriptorKind kind) {
        return new Builder(source, kind, SchemaNamespace.JAKARTA_EE, "6.1");
    }

    /**
     * The mutable form a descriptor is gathered in, by one thread, before {@link #build()}
     * copies it into a {@link WebDescriptor}. Its fields are the record's components.
     */
    public static final class Builder {
        public String source;
        public DescriptorKind kind;
        public SchemaNamespace namespace;
        public String version;
        public boolean metadataComplete;
        public Optional<String> displayName = Optional.empty();
        public boolean distributable;
        public Optional<String> fragmentName = Optional.empty();
        public RelativeOrdering ordering = RelativeOrdering.NONE;
        public Optional<AbsoluteOrdering> absoluteOrdering = Optional.empty();
        public final Map<String, String> contextParams = new LinkedHashMap<>();
        public final List<ServletDefinition> servlets = new ArrayList<>();
        public final List<ServletMapping> servletMappings = new ArrayList<>();
        public final List<FilterDefinition> filters = new ArrayList<>();
        public final List<FilterMapping> filterMappings = new ArrayList<>();
        public final List<String> listeners = new ArrayList<>();
        public final Map<String, String> mimeMappings = new LinkedHashMap<>();
        public final Map<String, String> localeEncodingMappings = new LinkedHashMap<>();
        public Optional<SessionConfig> sessionConfig = Optional.empty();
        public final List<ErrorPage> errorPages = new ArrayList<>();
        public final List<String> welcomeFiles = new ArrayList<>();
        public final List<SecurityConstraint> securityConstraints = new ArrayList<>();
        public Optional<LoginConfig> loginConfig = Optional.empty();
        public final List<String> securityRoles = new ArrayList<>();
        public boolean denyUncoveredHttpMethods;
        public Optional<JspConfig> jspConfig = Optional.empty();
        public final List<EnvEntry> envEntries = new ArrayList<>();
        public final List<ResourceRef> resourceRefs = new ArrayList<>();
        public Optional<String> requestCharacterEncoding = Optional.empty();
        public Optional<String> responseCharacterEncoding = Optional.empty();
        public Optional<String> defaultContextPath = Optional.empty();

        /** @param source the document's name; @param kind which document; @param namespace its namespace; @param version its version */
        public Builder(String source, DescriptorKind kind, SchemaNamespace namespace, String version) {
            this.source = source;
            this.kind = kind;
            this.namespace = namespace;
            this.version = version;
        }

        /** @return the descriptor, with copies of the collections */
        public WebDescriptor build() {
            return new WebDescriptor(source, kind, namespace, version, metadataComplete, displayName, distributable,
                fragmentName, ordering, absoluteOrdering, contextParams, servlets, servletMappings, filters, filterMappings,
                listeners, mimeMappings, localeEncodingMappings, sessionConfig, errorPages, welcomeFiles, securityConstraints,
                loginConfig, securityRoles, denyUncoveredHttpMethods, jspConfig, envEntries, resourceRefs,
                requestCharacterEncoding, responseCharacterEncoding, defaultContextPath);
        }
    }
}
