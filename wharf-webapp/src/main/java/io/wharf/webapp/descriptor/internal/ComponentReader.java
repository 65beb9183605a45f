package io.wharf.webapp.descriptor.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.wharf.webapp.descriptor.FilterDefinition;
import io.wharf.webapp.descriptor.FilterMapping;
import io.wharf.webapp.descriptor.MultipartConfig;
import io.wharf.webapp.descriptor.SecurityRoleRef;
import io.wharf.webapp.descriptor.ServletDefinition;
import io.wharf.webapp.descriptor.ServletMapping;

import jakarta.servlet.DispatcherType;

/**
 * Reads the application's components: {@code <servlet>}, {@code <servlet-mapping>},
 * {@code <filter>} and {@code <filter-mapping>} elements into records. Stateless; called by
 * {@link DescriptorReader} on the parsing thread.
 */
final class ComponentReader {

    private ComponentReader() {
    }

    static ServletDefinition servlet(XmlElement servlet) {
        String name = servlet.requiredText("servlet-name");
        Optional<String> className = servlet.optionalText("servlet-class");
        Optional<String> jspFile = servlet.optionalText("jsp-file");
        if (className.isPresent() && jspFile.isPresent()) {
            throw servlet.fail("servlet '" + name + "' has both <servlet-class> and <jsp-file>");
        }
        Optional<Integer> loadOnStartup = servlet.child("load-on-startup")
            .map(element -> element.text().isEmpty() ? 0 : Values.integer(element));
        Optional<Boolean> asyncSupported = servlet.child("async-supported").map(Values::bool);
        Optional<Boolean> enabled = servlet.child("enabled").map(Values::bool);
        Optional<MultipartConfig> multipart = servlet.child("multipart-config").map(ComponentReader::multipartConfig);
        Optional<String> runAs = servlet.child("run-as").map(element -> element.requiredText("role-name"));
        List<SecurityRoleRef> roleRefs = servlet.children("security-role-ref").stream()
            .map(ref -> new SecurityRoleRef(ref.requiredText("role-name"), ref.optionalText("role-link")))
            .toList();
        return new ServletDefinition(name, className, jspFile, initParams(servlet, "servlet '" + name + "'"),
            loadOnStartup, asyncSupported, enabled, multipart, runAs, roleRefs);
    }

    private static MultipartConfig multipartConfig(XmlElement element) {
        MultipartConfig defaults = MultipartConfig.DEFAULT;
        return new MultipartConfig(
            element.optionalText("location").orElse(defaults.location()),
            element.child("max-file-size").map(Values::longInteger).orElse(defaults.maxFileSize()),
            element.child("max-request-size").map(Values::longInteger).orElse(defaults.maxRequestSize()),
            element.child("file-size-threshold").map(Values::integer).orElse(defaults.fileSizeThreshold()));
    }

    static ServletMapping servletMapping(XmlElement mapping) {
        String name = mapping.requiredText("servlet-name");
        List<String> patterns = mapping.texts("url-pattern");
        if (patterns.isEmpty()) {
            throw mapping.fail("<servlet-mapping> for servlet '" + name + "' has no <url-pattern>");
        }
        return new ServletMapping(name, patterns);
    }

    static FilterDefinition filter(XmlElement filter) {
        String name = filter.requiredText("filter-name");
        return new FilterDefinition(name, filter.optionalText("filter-class"), initParams(filter, "filter '" + name + "'"),
            filter.child("async-supported").map(Values::bool));
    }

    static FilterMapping filterMapping(XmlElement mapping) {
        String name = mapping.requiredText("filter-name");
        List<String> patterns = mapping.texts("url-pattern");
        List<String> servletNames = mapping.texts("servlet-name");
        if (patterns.isEmpty() && servletNames.isEmpty()) {
            throw mapping.fail("<filter-mapping> for filter '" + name + "' has neither <url-pattern> nor <servlet-name>");
        }
        List<DispatcherType> dispatchers = new ArrayList<>();
        for (XmlElement dispatcher : mapping.children("dispatcher")) {
            DispatcherType type = Values.constant(dispatcher, DispatcherType.class);
            if (!dispatchers.contains(type)) {
                dispatchers.add(type);
            }
        }
        if (dispatchers.isEmpty()) {
            dispatchers.add(DispatcherType.REQUEST);
        }
        return new FilterMapping(name, patterns, servletNames, dispatchers);
    }

    /** @return the {@code <init-param>}s of a servlet or filter; a name given twice is an error naming {@code owner} */
    private static Map<String, String> initParams(XmlElement component, String owner) {
        Map<String, String> params = new LinkedHashMap<>();
        for (XmlElement param : component.children("init-param")) {
            Values.putUnique(params, param.requiredText("param-name"), param.child("param-value").map(XmlElement::text).orElse(""),
                param, "<init-param> of " + owner + ":");
        }
        return params;
    }
}
