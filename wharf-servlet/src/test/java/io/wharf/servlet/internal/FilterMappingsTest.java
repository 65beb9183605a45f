package io.wharf.servlet.internal;

import static jakarta.servlet.DispatcherType.ASYNC;
import static jakarta.servlet.DispatcherType.ERROR;
import static jakarta.servlet.DispatcherType.FORWARD;
import static jakarta.servlet.DispatcherType.INCLUDE;
import static jakarta.servlet.DispatcherType.REQUEST;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import io.wharf.http.pathmap.PathSpec;
import io.wharf.http.pathmap.PrefixPathSpec;

import jakarta.servlet.DispatcherType;

import org.junit.jupiter.api.Test;

/** The chain of filters of one dispatch (Servlet 6.1 sections 6.2.4 and 6.2.5). */
class FilterMappingsTest {

    @Test
    void urlPatternMatchesComeInDeclarationOrder() {
        FilterMappings<String> filters = new FilterMappings<>();
        filters.add(byUrl("all", "/*"));
        filters.add(byUrl("jsp", "*.jsp"));
        filters.add(byUrl("a", "/a/*"));
        filters.add(byUrl("b", "/b/*"));
        filters.add(byUrl("exact", "/a/x.jsp"));
        filters.add(byUrl("root", ""));
        filters.add(byUrl("default", "/"));
        assertEquals(List.of("all", "jsp", "a", "exact", "default"), filters.chain("/a/x.jsp", "S", REQUEST));
        assertEquals(List.of("all", "a", "default"), filters.chain("/a", "S", REQUEST));
        assertEquals(List.of("all", "default"), filters.chain("/ab", "S", REQUEST));
        assertEquals(List.of("all", "default"), filters.chain("/a.jsp/x", "S", REQUEST));
        assertEquals(List.of("all", "b", "default"), filters.chain("/b/", "S", REQUEST));
        assertEquals(List.of("all", "root", "default"), filters.chain("/", "S", REQUEST));
    }

    @Test
    void servletNameMatchesComeAfterAllUrlPatternMatches() {
        FilterMappings<String> filters = new FilterMappings<>();
        filters.add(byName("name1", "S"));
        filters.add(byUrl("url1", "/*"));
        filters.add(byName("other", "T"));
        filters.add(byName("everyServlet", "*"));
        filters.add(byUrl("url2", "/x/*"));
        filters.add(byName("name2", "S"));
        assertEquals(List.of("url1", "url2", "name1", "everyServlet", "name2"), filters.chain("/x/y", "S", REQUEST));
        assertEquals(List.of("url1", "other", "everyServlet"), filters.chain("/z", "T", REQUEST));
        assertEquals(List.of("url1"), filters.chain("/z", null, REQUEST));
    }

    /** A dispatch by name (getNamedDispatcher) has no path: only servlet names match. */
    @Test
    void aNamedDispatchMatchesNoUrlPattern() {
        FilterMappings<String> filters = new FilterMappings<>();
        filters.add(FilterMapping.of("both", List.of("/*"), List.of("S"), Set.of(FORWARD)));
        filters.add(FilterMapping.of("url", List.of("/*"), List.of(), Set.of(FORWARD)));
        assertEquals(List.of("both"), filters.chain(null, "S", FORWARD));
        assertEquals(List.of(), filters.chain(null, "T", FORWARD));
    }

    /** Section 6.2.4's example: a mapping of two patterns and two names reads as four mappings, in their order. */
    @Test
    void aMappingOfPatternsAndNamesActsAsOneMappingPerPatternAndName() {
        FilterMappings<String> filters = new FilterMappings<>();
        filters.add(byUrl("before", "/foo/*"));
        filters.add(FilterMapping.of("multiple", List.of("/foo/*", "/bar/*"), List.of("Servlet1", "Servlet2"), List.of()));
        filters.add(byName("after", "Servlet1"));
        assertEquals(List.of("before", "multiple", "multiple", "after"), filters.chain("/foo/x", "Servlet1", REQUEST));
        assertEquals(List.of("multiple", "multiple", "after"), filters.chain("/bar/x", "Servlet1", REQUEST));
        assertEquals(List.of("multiple"), filters.chain("/baz", "Servlet2", REQUEST));
        assertEquals(List.of("before", "multiple"), filters.chain("/foo/x", "Servlet3", REQUEST));
    }

    /** Two patterns of one mapping that both match add its filter once; two mappings add it twice. */
    @Test
    void aMappingAddsItsFilterOnceToEachPart() {
        FilterMappings<String> filters = new FilterMappings<>();
        filters.add(FilterMapping.of("f", List.of("/a/*", "/*", "*.jsp"), List.of("S", "*"), List.of()));
        assertEquals(List.of("f", "f"), filters.chain("/a/x.jsp", "S", REQUEST));
        filters.add(byUrl("f", "/a/*"));
        assertEquals(List.of("f", "f", "f"), filters.chain("/a/x.jsp", "S", REQUEST));
        assertEquals(List.of("f"), filters.chain("/b", null, REQUEST));
    }

    @Test
    void eachMappingAppliesOnlyToItsDispatcherTypes() {
        FilterMappings<String> filters = new FilterMappings<>();
        filters.add(FilterMapping.of("requestByDefault", List.of("/*"), List.of(), List.of()));
        filters.add(FilterMapping.of("forward", List.of("/*"), List.of(), List.of(FORWARD)));
        filters.add(FilterMapping.of("requestAndForward", List.of("/*"), List.of(), List.of(REQUEST, FORWARD)));
        filters.add(FilterMapping.of("error", List.of("/*"), List.of(), List.of(ERROR)));
        filters.add(FilterMapping.of("includeAndAsync", List.of(), List.of("*"), List.of(INCLUDE, ASYNC)));
        filters.add(FilterMapping.of("all", List.of(), List.of("S"), EnumSet.allOf(DispatcherType.class)));
        assertEquals(List.of("requestByDefault", "requestAndForward", "all"), filters.chain("/x", "S", REQUEST));
        assertEquals(List.of("forward", "requestAndForward", "all"), filters.chain("/x", "S", FORWARD));
        assertEquals(List.of("includeAndAsync", "all"), filters.chain("/x", "S", INCLUDE));
        assertEquals(List.of("error", "all"), filters.chain("/x", "S", ERROR));
        assertEquals(List.of("includeAndAsync", "all"), filters.chain("/x", "S", ASYNC));
    }

    /** The examples of section 6.2.5, one filter mapping at a time. */
    @Test
    void theSpecificationsDispatcherExamples() {
        FilterMappings<String> products = new FilterMappings<>();
        products.add(FilterMapping.of("Logging Filter", List.of("/products/*"), List.of(), List.of()));
        assertEquals(List.of("Logging Filter"), products.chain("/products/list", "ProductServlet", REQUEST));
        assertEquals(List.of(), products.chain("/products/list", "ProductServlet", FORWARD));

        FilterMappings<String> included = new FilterMappings<>();
        included.add(FilterMapping.of("Logging Filter", List.of(), List.of("ProductServlet"), List.of(INCLUDE)));
        assertEquals(List.of(), included.chain("/products/list", "ProductServlet", REQUEST));
        assertEquals(List.of(), included.chain("/products/list", "ProductServlet", FORWARD));
        assertEquals(List.of("Logging Filter"), included.chain("/products/list", "ProductServlet", INCLUDE));
        assertEquals(List.of("Logging Filter"), included.chain(null, "ProductServlet", INCLUDE));

        FilterMappings<String> forwarded = new FilterMappings<>();
        forwarded.add(FilterMapping.of("Logging Filter", List.of("/products/*"), List.of(), List.of(FORWARD, REQUEST)));
        assertEquals(List.of("Logging Filter"), forwarded.chain("/products/list", "ProductServlet", REQUEST));
        assertEquals(List.of("Logging Filter"), forwarded.chain("/products/list", "ProductServlet", FORWARD));
        assertEquals(List.of(), forwarded.chain("/other", "ProductServlet", FORWARD));

        FilterMappings<String> allDispatch = new FilterMappings<>();
        allDispatch.add(FilterMapping.of("All Dispatch Filter", List.of(), List.of("*"), List.of(FORWARD)));
        assertEquals(List.of("All Dispatch Filter"), allDispatch.chain("/any", "AnyServlet", FORWARD));
        assertEquals(List.of("All Dispatch Filter"), allDispatch.chain(null, "AnyServlet", FORWARD));
        assertEquals(List.of(), allDispatch.chain("/any", "AnyServlet", REQUEST));
    }

    /** FilterRegistration's isMatchAfter false: before the declared mappings, in the order they were added. */
    @Test
    void mappingsAddedBeforeDeclaredOnesComeFirst() {
        FilterMappings<String> filters = new FilterMappings<>();
        filters.add(byUrl("declared1", "/*"));
        filters.add(byUrl("declared2", "/*"));
        filters.addBeforeDeclared(byUrl("first1", "/*"));
        filters.addBeforeDeclared(byUrl("first2", "/*"));
        filters.add(byUrl("last", "/*"));
        assertEquals(List.of("first1", "first2", "declared1", "declared2", "last"), filters.chain("/", "S", REQUEST));
        assertEquals(5, filters.size());
        assertEquals("first2", filters.mappings().get(1).filter());
        assertThrows(UnsupportedOperationException.class, () -> filters.mappings().clear());
    }

    @Test
    void noMappingGivesAnEmptyChain() {
        FilterMappings<String> filters = new FilterMappings<>();
        assertEquals(List.of(), filters.chain("/x", "S", REQUEST));
        filters.add(byUrl("a", "/a/*"));
        assertEquals(List.of(), filters.chain("/x", "S", REQUEST));
        assertThrows(NullPointerException.class, () -> filters.chain("/x", "S", null));
    }

    @Test
    void aMappingDefaultsToRequestAndChecksWhatItIsGiven() {
        FilterMapping<String> noTypes = FilterMapping.of("f", List.of("/*"), List.of(), null);
        assertEquals(Set.of(REQUEST), noTypes.dispatcherTypes());
        assertTrue(noTypes.appliesTo(REQUEST));
        assertFalse(noTypes.appliesTo(FORWARD));
        assertThrows(UnsupportedOperationException.class, () -> noTypes.dispatcherTypes().add(ERROR));
        assertEquals(List.of(new PrefixPathSpec("")), noTypes.urlPatterns());

        IllegalArgumentException empty = assertThrows(IllegalArgumentException.class,
            () -> FilterMapping.of("f", List.of(), List.of(), List.of(REQUEST)));
        assertEquals("the filter mapping of f names neither a url-pattern nor a servlet-name (Servlet 6.1 section 6.2.4)",
            empty.getMessage());
        IllegalArgumentException emptyName = assertThrows(IllegalArgumentException.class,
            () -> FilterMapping.of("f", List.of(), List.of(""), List.of()));
        assertEquals("the filter mapping of f has an empty servlet-name", emptyName.getMessage());
        IllegalArgumentException badPattern = assertThrows(IllegalArgumentException.class,
            () -> FilterMapping.of("f", List.of("jsp"), List.of(), List.of()));
        assertTrue(badPattern.getMessage().startsWith("url-pattern \"jsp\" is not valid: "), badPattern.getMessage());
        assertThrows(NullPointerException.class, () -> FilterMapping.of(null, List.of("/*"), List.of(), List.of()));
    }

    /** The canonical constructor takes path specs, but only those a url-pattern declares. */
    @Test
    void aMappingRefusesARegexOrTemplateSpec() {
        assertThrows(IllegalArgumentException.class,
            () -> new FilterMapping<>("f", List.of(PathSpec.from("^/a.*")), List.of(), Set.of()));
        assertThrows(IllegalArgumentException.class,
            () -> new FilterMapping<>("f", List.of(PathSpec.from("/a/{b}")), List.of(), Set.of()));
        assertThrows(IllegalArgumentException.class, () -> FilterMapping.of("f", List.of("/a/{b}"), List.of(), List.of()));
    }

    /** The empty path (the context path without its trailing slash) is matched by "", "/*" and "/", as "/" is. */
    @Test
    void theEmptyPathIsTheContextRoot() {
        FilterMappings<String> filters = new FilterMappings<>();
        filters.add(byUrl("all", "/*"));
        filters.add(byUrl("slash", "//*"));
        filters.add(byUrl("root", ""));
        filters.add(byUrl("a", "/a"));
        filters.add(byUrl("jsp", "*.jsp"));
        filters.add(byUrl("default", "/"));
        assertEquals(List.of("all", "root", "default"), filters.chain("", "S", REQUEST));
        assertEquals(List.of("all", "slash", "root", "default"), filters.chain("/", "S", REQUEST));
    }

    @Test
    void servletNamesMatchExactlyOrByStar() {
        FilterMapping<String> mapping = FilterMapping.of("f", List.of(), List.of("Servlet"), List.of());
        assertTrue(mapping.matchesServlet("Servlet"));
        assertFalse(mapping.matchesServlet("servlet"));
        assertFalse(mapping.matchesServlet("Servlet2"));
        assertFalse(mapping.matchesServlet(null));
        assertTrue(FilterMapping.of("f", List.of(), List.of("*"), List.of()).matchesServlet("anything"));
        assertFalse(FilterMapping.of("f", List.of(), List.of("*"), List.of()).matchesServlet(null));
    }

    private static FilterMapping<String> byUrl(String filter, String pattern) {
        return FilterMapping.of(filter, List.of(pattern), List.of(), List.of());
    }

    private static FilterMapping<String> byName(String filter, String servletName) {
        return FilterMapping.of(filter, List.of(), List.of(servletName), List.of());
    }
}
