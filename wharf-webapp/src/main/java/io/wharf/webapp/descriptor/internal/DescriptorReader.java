package io.wharf.webapp.descriptor.internal;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Function;

import io.wharf.webapp.descriptor.AbsoluteOrdering;
import io.wharf.webapp.descriptor.CookieConfig;
import io.wharf.webapp.descriptor.DescriptorKind;
import io.wharf.webapp.descriptor.EnvEntry;
import io.wharf.webapp.descriptor.ErrorPage;
import io.wharf.webapp.descriptor.FilterDefinition;
import io.wharf.webapp.descriptor.JspConfig;
import io.wharf.webapp.descriptor.JspPropertyGroup;
import io.wharf.webapp.descriptor.RelativeOrdering;
import io.wharf.webapp.descriptor.ResourceRef;
import io.wharf.webapp.descriptor.ServletDefinition;
import io.wharf.webapp.descriptor.SessionConfig;
import io.wharf.webapp.descriptor.WebDescriptor;

import jakarta.servlet.SessionTrackingMode;

/**
 * Reads the children of a {@code <web-app>} or {@code <web-fragment>} root into a {@link
 * WebDescriptor.Builder}, element by element in document order, checking what the schema's
 * uniqueness rules and the specification require of one document. Elements it does not model
 * (EJB and service references, message destinations, icons, descriptions, lifecycle callbacks)
 * are skipped. One instance reads one document on one thread.
 */
public final class DescriptorReader {

    /** Elements that may appear once in a document. */
    private static final Set<String> SINGLE = Set.of("session-config", "jsp-config", "login-config", "absolute-ordering",
        "ordering", "name", "default-context-path", "request-character-encoding", "response-character-encoding");

    /** Elements of web-fragment.xml only, and of web.xml only. */
    private static final Set<String> FRAGMENT_ONLY = Set.of("name", "ordering");
    private static final Set<String> WEB_APP_ONLY = Set.of("absolute-ordering");

    private final WebDescriptor.Builder builder;
    private final Set<String> seen = new HashSet<>();
    private final List<XmlElement> mappingElements = new ArrayList<>();

    /** @param builder the descriptor to fill, whose kind says which root this is */
    public DescriptorReader(WebDescriptor.Builder builder) {
        this.builder = builder;
    }

    /** Reads every child of the root; throws a {@link io.wharf.webapp.descriptor.DescriptorException} at the first problem. */
    public void read(XmlElement root) {
        for (XmlElement element : root.children()) {
            String name = element.name();
            if (SINGLE.contains(name) && !seen.add(name)) {
                throw element.fail("<" + name + "> may appear only once");
            }
            boolean fragment = builder.kind == DescriptorKind.WEB_FRAGMENT;
            if (fragment ? WEB_APP_ONLY.contains(name) : FRAGMENT_ONLY.contains(name)) {
                throw element.fail("<" + name + "> belongs in " + (fragment ? "web.xml" : "web-fragment.xml"));
            }
            readElement(element);
        }
        if (builder.metadataComplete && builder.kind == DescriptorKind.WEB_APP) {
            checkMappingsNameDeclaredComponents();
        }
    }

    /**
     * With metadata-complete="true" nothing but web.xml can declare a servlet or filter, so a
     * mapping that names an undeclared one is an error at its line; otherwise an annotation or a
     * fragment may declare it, and {@link io.wharf.webapp.descriptor.DescriptorMerger} checks.
     * Declarations may follow mappings in the document, hence a check after the whole document.
     */
    private void checkMappingsNameDeclaredComponents() {
        for (XmlElement mapping : mappingElements) {
            boolean servlet = mapping.name().equals("servlet-mapping");
            String name = mapping.requiredText(servlet ? "servlet-name" : "filter-name");
            boolean declared = servlet
                ? builder.servlets.stream().anyMatch(declaration -> declaration.name().equals(name))
                : builder.filters.stream().anyMatch(declaration -> declaration.name().equals(name));
            if (!declared) {
                throw mapping.fail("<" + mapping.name() + "> names " + (servlet ? "servlet '" : "filter '") + name + "' that is not declared");
            }
        }
    }

    private void readElement(XmlElement element) {
        switch (element.name()) {
            // One per language (xml:lang) is allowed: the first is kept.
            case "display-name" -> builder.displayName = builder.displayName.or(() -> nonEmpty(element));
            case "distributable" -> builder.distributable = true;
            case "name" -> builder.fragmentName = nonEmpty(element);
            case "ordering" -> builder.ordering = relativeOrdering(element);
            case "absolute-ordering" -> builder.absoluteOrdering = Optional.of(absoluteOrdering(element));
            case "context-param" -> Values.putUnique(builder.contextParams, element.requiredText("param-name"),
                element.child("param-value").map(XmlElement::text).orElse(""), element, "<context-param>");
            case "servlet" -> addUnique(builder.servlets, ComponentReader.servlet(element), ServletDefinition::name, element, "<servlet-name>");
            case "servlet-mapping" -> {
                builder.servletMappings.add(ComponentReader.servletMapping(element));
                mappingElements.add(element);
            }
            case "filter" -> addUnique(builder.filters, ComponentReader.filter(element), FilterDefinition::name, element, "<filter-name>");
            case "filter-mapping" -> {
                builder.filterMappings.add(ComponentReader.filterMapping(element));
                mappingElements.add(element);
            }
            case "listener" -> builder.listeners.add(element.requiredText("listener-class"));
            case "mime-mapping" -> Values.putUnique(builder.mimeMappings, element.requiredText("extension"),
                element.requiredText("mime-type"), element, "<mime-mapping> for extension");
            case "locale-encoding-mapping-list" -> element.children("locale-encoding-mapping").forEach(mapping ->
                Values.putUnique(builder.localeEncodingMappings, mapping.requiredText("locale"), mapping.requiredText("encoding"),
                    mapping, "<locale-encoding-mapping> for locale"));
            case "session-config" -> builder.sessionConfig = Optional.of(sessionConfig(element));
            case "error-page" -> addErrorPage(element);
            case "welcome-file-list" -> builder.welcomeFiles.addAll(element.texts("welcome-file"));
            case "security-constraint" -> builder.securityConstraints.add(SecurityReader.constraint(element));
            case "login-config" -> builder.loginConfig = Optional.of(SecurityReader.loginConfig(element));
            case "security-role" -> addUnique(builder.securityRoles, element.requiredText("role-name"), role -> role, element, "<security-role>");
            case "deny-uncovered-http-methods" -> builder.denyUncoveredHttpMethods = true;
            case "jsp-config" -> builder.jspConfig = Optional.of(jspConfig(element));
            case "env-entry" -> addEnvEntry(element);
            case "resource-ref" -> addResourceRef(element);
            case "request-character-encoding" -> builder.requestCharacterEncoding = nonEmpty(element);
            case "response-character-encoding" -> builder.responseCharacterEncoding = nonEmpty(element);
            case "default-context-path" -> builder.defaultContextPath = Optional.of(element.text());
            default -> {
                // Not part of the model (see the class comment).
            }
        }
    }

    private static Optional<String> nonEmpty(XmlElement element) {
        return Optional.of(element.text()).filter(text -> !text.isEmpty());
    }

    /** Adds {@code value} to {@code list} unless an entry with its key is there, which is an error naming {@code element}. */
    private static <T> void addUnique(List<T> list, T value, Function<T, String> key, XmlElement element, String what) {
        String name = key.apply(value);
        if (list.stream().anyMatch(other -> key.apply(other).equals(name))) {
            throw element.fail("duplicate " + what + " '" + name + "'");
        }
        list.add(value);
    }

    private void addErrorPage(XmlElement element) {
        Optional<Integer> code = element.child("error-code").map(Values::integer);
        Optional<String> exception = element.optionalText("exception-type");
        if (code.isPresent() && exception.isPresent()) {
            throw element.fail("<error-page> has both <error-code> and <exception-type>");
        }
        addUnique(builder.errorPages, new ErrorPage(code, exception, element.requiredText("location")), ErrorPage::key, element,
            "<error-page> for");
    }

    private void addEnvEntry(XmlElement element) {
        addUnique(builder.envEntries, new EnvEntry(element.requiredText("env-entry-name"), element.optionalText("env-entry-type"),
            element.child("env-entry-value").map(XmlElement::text), element.optionalText("lookup-name")), EnvEntry::name, element,
            "<env-entry-name>");
    }

    private void addResourceRef(XmlElement element) {
        addUnique(builder.resourceRefs, new ResourceRef(element.requiredText("res-ref-name"), element.optionalText("res-type"),
            element.optionalText("res-auth"), element.optionalText("res-sharing-scope"), element.optionalText("lookup-name")),
            ResourceRef::name, element, "<res-ref-name>");
    }

    private static SessionConfig sessionConfig(XmlElement element) {
        Optional<CookieConfig> cookie = element.child("cookie-config").map(DescriptorReader::cookieConfig);
        List<SessionTrackingMode> modes = new ArrayList<>();
        for (XmlElement mode : element.children("tracking-mode")) {
            SessionTrackingMode value = Values.constant(mode, SessionTrackingMode.class);
            if (!modes.contains(value)) {
                modes.add(value);
            }
        }
        return new SessionConfig(element.child("session-timeout").map(Values::integer), cookie, modes);
    }

    private static CookieConfig cookieConfig(XmlElement element) {
        Map<String, String> attributes = new LinkedHashMap<>();
        for (XmlElement attribute : element.children("attribute")) {
            Values.putUnique(attributes, attribute.requiredText("attribute-name"),
                attribute.child("attribute-value").map(XmlElement::text).orElse(""), attribute, "cookie <attribute>");
        }
        return new CookieConfig(element.optionalText("name"), element.optionalText("domain"), element.optionalText("path"),
            element.optionalText("comment"), element.child("http-only").map(Values::bool), element.child("secure").map(Values::bool),
            element.child("max-age").map(Values::integer), attributes);
    }

    private static JspConfig jspConfig(XmlElement element) {
        List<JspConfig.Taglib> taglibs = element.children("taglib").stream()
            .map(taglib -> new JspConfig.Taglib(taglib.requiredText("taglib-uri"), taglib.requiredText("taglib-location")))
            .toList();
        List<JspPropertyGroup> groups = new ArrayList<>();
        for (XmlElement group : element.children("jsp-property-group")) {
            Map<String, String> settings = new LinkedHashMap<>();
            for (XmlElement child : group.children()) {
                switch (child.name()) {
                    case "url-pattern", "include-prelude", "include-coda", "description", "display-name", "icon" -> {
                        // Lists and descriptions, not settings.
                    }
                    default -> Values.putUnique(settings, child.name(), child.text(), child, "setting of <jsp-property-group>:");
                }
            }
            groups.add(new JspPropertyGroup(group.texts("url-pattern"), settings, group.texts("include-prelude"), group.texts("include-coda")));
        }
        return new JspConfig(taglibs, groups);
    }

    private static RelativeOrdering relativeOrdering(XmlElement element) {
        Optional<XmlElement> before = element.child("before");
        Optional<XmlElement> after = element.child("after");
        boolean beforeOthers = before.map(list -> list.has("others")).orElse(false);
        boolean afterOthers = after.map(list -> list.has("others")).orElse(false);
        if (beforeOthers && afterOthers) {
            throw element.fail("<ordering> puts <others/> both before and after");
        }
        return new RelativeOrdering(before.map(list -> list.texts("name")).orElse(List.of()), beforeOthers,
            after.map(list -> list.texts("name")).orElse(List.of()), afterOthers);
    }

    private static AbsoluteOrdering absoluteOrdering(XmlElement element) {
        List<String> names = new ArrayList<>();
        OptionalInt others = OptionalInt.empty();
        for (XmlElement child : element.children()) {
            if (child.name().equals("others")) {
                if (others.isPresent()) {
                    throw child.fail("<absolute-ordering> has <others/> twice");
                }
                others = OptionalInt.of(names.size());
            } else if (child.name().equals("name")) {
                if (names.contains(child.text())) {
                    throw child.fail("<absolute-ordering> names '" + child.text() + "' twice");
                }
                names.add(child.text());
            }
        }
        return new AbsoluteOrdering(names, others);
    }
}
