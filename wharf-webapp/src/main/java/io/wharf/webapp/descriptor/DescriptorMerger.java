package io.wharf.webapp.descriptor;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Assembles the effective descriptor of an application from web.xml, its ordered fragments and
 * the entries read from annotations (Servlet 6.1 sections 8.1 and 8.2.3). The deployer calls it
 * on its thread; it keeps no state.
 *
 * <p>The rules, for a primary descriptor over secondary ones (web.xml over fragments; a document
 * over the annotations of its own classes):
 * <ul>
 * <li>a value the primary gives wins; a value only secondaries give must be the same in each
 *     that gives it, or the merge fails naming two of them. This holds for single values
 *     ({@code <display-name>}, {@code <session-config>}, {@code <login-config>}, the character
 *     encodings), keyed entries (context parameters, MIME and locale mappings, error pages by
 *     code or type, env entries, resource refs, taglibs by URI) and each setting of a servlet or
 *     filter of one name (its class, each init parameter, load-on-startup, async support...);
 * <li>URL patterns: a servlet or filter the primary maps keeps only the primary's mappings;
 *     the secondaries' mappings of other names are added, in order;
 * <li>additive: listeners, security constraints, security roles, JSP property groups; welcome
 *     files are the primary's when it has any, else the secondaries' together;
 * <li>distributable only when web.xml and every fragment say so.
 * </ul>
 */
public final class DescriptorMerger {

    private DescriptorMerger() {
    }

    /**
     * @param descriptor web.xml, or a fragment, with its values
     * @param annotations the entries of the annotated classes it goes with (WEB-INF/classes, or the fragment's jar)
     * @return the descriptor completed by the annotations; {@code descriptor} itself when it is metadata-complete
     */
    public static WebDescriptor overlay(WebDescriptor descriptor, WebDescriptor annotations) {
        return descriptor.metadataComplete() ? descriptor : combine(descriptor, List.of(annotations));
    }

    /**
     * @param webXml the application's web.xml (already {@linkplain #overlay overlaid} with its classes' annotations)
     * @param orderedFragments the fragments in {@link FragmentOrdering}'s order, each overlaid with its jar's annotations;
     *     ignored when web.xml is metadata-complete
     * @return the effective descriptor, in which every mapping names a declared servlet or filter and
     *     every servlet and filter has its class
     */
    public static WebDescriptor merge(WebDescriptor webXml, List<WebDescriptor> orderedFragments) {
        List<WebDescriptor> fragments = webXml.metadataComplete() ? List.of() : orderedFragments;
        WebDescriptor merged = combine(webXml, fragments);
        List<WebDescriptor> all = new ArrayList<>();
        all.add(webXml);
        all.addAll(fragments);
        for (WebDescriptor descriptor : all) {
            for (ServletMapping mapping : descriptor.servletMappings()) {
                if (merged.servlet(mapping.servletName()).isEmpty()) {
                    throw new DescriptorException(descriptor.source() + ": <servlet-mapping> names servlet '" + mapping.servletName()
                        + "' that no descriptor or annotation declares");
                }
            }
            for (FilterMapping mapping : descriptor.filterMappings()) {
                if (merged.filter(mapping.filterName()).isEmpty()) {
                    throw new DescriptorException(descriptor.source() + ": <filter-mapping> names filter '" + mapping.filterName()
                        + "' that no descriptor or annotation declares");
                }
            }
        }
        for (ServletDefinition servlet : merged.servlets()) {
            if (servlet.className().isEmpty() && servlet.jspFile().isEmpty()) {
                throw new DescriptorException("servlet '" + servlet.name() + "' has neither <servlet-class> nor <jsp-file> in "
                    + webXml.source() + ", its fragments or annotations");
            }
        }
        for (FilterDefinition filter : merged.filters()) {
            if (filter.className().isEmpty()) {
                throw new DescriptorException("filter '" + filter.name() + "' has no <filter-class> in "
                    + webXml.source() + ", its fragments or annotations");
            }
        }
        return merged;
    }

    private static WebDescriptor combine(WebDescriptor primary, List<WebDescriptor> secondaries) {
        Agreement agree = new Agreement(primary, secondaries);
        WebDescriptor.Builder merged = primary.toBuilder();
        merged.displayName = agree.value("<display-name>", primary.displayName(), WebDescriptor::displayName);
        merged.distributable = primary.distributable() && secondaries.stream()
            .filter(secondary -> secondary.kind() == DescriptorKind.WEB_FRAGMENT)
            .allMatch(WebDescriptor::distributable);
        merged.denyUncoveredHttpMethods = primary.denyUncoveredHttpMethods()
            || secondaries.stream().anyMatch(WebDescriptor::denyUncoveredHttpMethods);
        replace(merged.contextParams, agree.map("<context-param>", primary.contextParams(), WebDescriptor::contextParams));
        replace(merged.mimeMappings, agree.map("<mime-mapping> for extension", primary.mimeMappings(), WebDescriptor::mimeMappings));
        replace(merged.localeEncodingMappings, agree.map("<locale-encoding-mapping> for locale", primary.localeEncodingMappings(),
            WebDescriptor::localeEncodingMappings));
        merged.sessionConfig = agree.value("<session-config>", primary.sessionConfig(), WebDescriptor::sessionConfig);
        merged.loginConfig = agree.value("<login-config>", primary.loginConfig(), WebDescriptor::loginConfig);
        merged.requestCharacterEncoding = agree.value("<request-character-encoding>", primary.requestCharacterEncoding(),
            WebDescriptor::requestCharacterEncoding);
        merged.responseCharacterEncoding = agree.value("<response-character-encoding>", primary.responseCharacterEncoding(),
            WebDescriptor::responseCharacterEncoding);
        replace(merged.errorPages, agree.keyed("<error-page> for", primary.errorPages(), WebDescriptor::errorPages, ErrorPage::key));
        replace(merged.envEntries, agree.keyed("<env-entry>", primary.envEntries(), WebDescriptor::envEntries, EnvEntry::name));
        replace(merged.resourceRefs, agree.keyed("<resource-ref>", primary.resourceRefs(), WebDescriptor::resourceRefs, ResourceRef::name));
        replace(merged.servlets, servlets(agree, primary, secondaries));
        replace(merged.filters, filters(agree, primary, secondaries));
        replace(merged.servletMappings, mappings(primary, secondaries, WebDescriptor::servletMappings, ServletMapping::servletName));
        replace(merged.filterMappings, mappings(primary, secondaries, WebDescriptor::filterMappings, FilterMapping::filterName));
        replace(merged.listeners, union(primary, secondaries, WebDescriptor::listeners));
        replace(merged.securityConstraints, concatenation(primary, secondaries, WebDescriptor::securityConstraints));
        replace(merged.securityRoles, union(primary, secondaries, WebDescriptor::securityRoles));
        if (primary.welcomeFiles().isEmpty()) {
            replace(merged.welcomeFiles, union(primary, secondaries, WebDescriptor::welcomeFiles));
        }
        merged.jspConfig = jspConfig(agree, primary, secondaries);
        return merged.build();
    }

    private static List<ServletDefinition> servlets(Agreement agree, WebDescriptor primary, List<WebDescriptor> secondaries) {
        List<ServletDefinition> servlets = new ArrayList<>();
        for (String name : union(primary, secondaries, descriptor -> descriptor.servlets().stream().map(ServletDefinition::name).toList())) {
            Declarations<ServletDefinition> servlet = new Declarations<>(agree, "servlet '" + name + "': ", primary.servlet(name),
                descriptor -> descriptor.servlet(name));
            // The class and the JSP file are one choice: web.xml's, if it makes it, or the fragments'.
            boolean ownImplementation = servlet.own().flatMap(ServletDefinition::className)
                .or(() -> servlet.own().flatMap(ServletDefinition::jspFile)).isPresent();
            List<SecurityRoleRef> roleRefs = servlet.own().map(ServletDefinition::securityRoleRefs).filter(refs -> !refs.isEmpty())
                .orElseGet(() -> union(primary, secondaries,
                    descriptor -> descriptor.servlet(name).map(ServletDefinition::securityRoleRefs).orElse(List.of())));
            servlets.add(new ServletDefinition(name,
                ownImplementation ? servlet.own().flatMap(ServletDefinition::className) : servlet.withoutOwn().setting("<servlet-class>", ServletDefinition::className),
                ownImplementation ? servlet.own().flatMap(ServletDefinition::jspFile) : servlet.withoutOwn().setting("<jsp-file>", ServletDefinition::jspFile),
                servlet.initParams(ServletDefinition::initParams),
                servlet.setting("<load-on-startup>", ServletDefinition::loadOnStartup),
                servlet.setting("<async-supported>", ServletDefinition::asyncSupported),
                servlet.setting("<enabled>", ServletDefinition::enabled),
                servlet.setting("<multipart-config>", ServletDefinition::multipartConfig),
                servlet.setting("<run-as>", ServletDefinition::runAs),
                roleRefs));
        }
        return servlets;
    }

    private static List<FilterDefinition> filters(Agreement agree, WebDescriptor primary, List<WebDescriptor> secondaries) {
        List<FilterDefinition> filters = new ArrayList<>();
        for (String name : union(primary, secondaries, descriptor -> descriptor.filters().stream().map(FilterDefinition::name).toList())) {
            Declarations<FilterDefinition> filter = new Declarations<>(agree, "filter '" + name + "': ", primary.filter(name),
                descriptor -> descriptor.filter(name));
            filters.add(new FilterDefinition(name, filter.setting("<filter-class>", FilterDefinition::className),
                filter.initParams(FilterDefinition::initParams), filter.setting("<async-supported>", FilterDefinition::asyncSupported)));
        }
        return filters;
    }

    /**
     * The declarations of one servlet or filter name: the primary's, if any, and a way to find
     * each secondary's; its settings are merged by the {@link Agreement}.
     */
    private record Declarations<T>(Agreement agree, String what, Optional<T> own, Function<WebDescriptor, Optional<T>> of) {

        /** @return the setting the primary gives, else the one the secondaries agree on */
        <V> Optional<V> setting(String element, Function<T, Optional<V>> field) {
            return agree.value(what + element, own.flatMap(field), descriptor -> of.apply(descriptor).flatMap(field));
        }

        /** @return the init parameters, each merged by name */
        Map<String, String> initParams(Function<T, Map<String, String>> field) {
            return agree.map(what + "<init-param>", own.map(field).orElse(Map.of()),
                descriptor -> of.apply(descriptor).map(field).orElse(Map.of()));
        }

        /** @return these declarations as though the primary had none */
        Declarations<T> withoutOwn() {
            return new Declarations<>(agree, what, Optional.empty(), of);
        }
    }

    /** @return the primary's mappings, then the secondaries' mappings of names the primary does not map */
    private static <M> List<M> mappings(WebDescriptor primary, List<WebDescriptor> secondaries,
                                        Function<WebDescriptor, List<M>> mappingsOf, Function<M, String> nameOf) {
        Set<String> mappedByPrimary = new LinkedHashSet<>(mappingsOf.apply(primary).stream().map(nameOf).toList());
        List<M> mappings = new ArrayList<>(mappingsOf.apply(primary));
        for (WebDescriptor secondary : secondaries) {
            mappingsOf.apply(secondary).stream().filter(mapping -> !mappedByPrimary.contains(nameOf.apply(mapping))).forEach(mappings::add);
        }
        return mappings;
    }

    private static Optional<JspConfig> jspConfig(Agreement agree, WebDescriptor primary, List<WebDescriptor> secondaries) {
        Function<WebDescriptor, JspConfig> of = descriptor -> descriptor.jspConfig().orElse(new JspConfig(List.of(), List.of()));
        if (of.apply(primary).equals(new JspConfig(List.of(), List.of())) && secondaries.stream().allMatch(d -> d.jspConfig().isEmpty())) {
            return primary.jspConfig();
        }
        List<JspConfig.Taglib> taglibs = agree.keyed("<taglib> for URI", of.apply(primary).taglibs(),
            descriptor -> of.apply(descriptor).taglibs(), JspConfig.Taglib::uri);
        return Optional.of(new JspConfig(taglibs, concatenation(primary, secondaries, descriptor -> of.apply(descriptor).propertyGroups())));
    }

    /** @return the primary's values then the secondaries', each once */
    private static <T> List<T> union(WebDescriptor primary, List<WebDescriptor> secondaries, Function<WebDescriptor, List<T>> valuesOf) {
        return List.copyOf(new LinkedHashSet<>(concatenation(primary, secondaries, valuesOf)));
    }

    /** @return the primary's values then the secondaries' */
    private static <T> List<T> concatenation(WebDescriptor primary, List<WebDescriptor> secondaries, Function<WebDescriptor, List<T>> valuesOf) {
        List<T> values = new ArrayList<>(valuesOf.apply(primary));
        secondaries.forEach(secondary -> values.addAll(valuesOf.apply(secondary)));
        return values;
    }

    private static <T> void replace(List<T> target, List<T> values) {
        target.clear();
        target.addAll(values);
    }

    private static <V> void replace(Map<String, V> target, Map<String, V> values) {
        target.clear();
        target.putAll(values);
    }
}
