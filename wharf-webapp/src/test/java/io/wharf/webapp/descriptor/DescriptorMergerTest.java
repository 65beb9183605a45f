package io.wharf.webapp.descriptor;

import static io.wharf.webapp.descriptor.Descriptors.fragment;
import static io.wharf.webapp.descriptor.Descriptors.webXml;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

/** DescriptorMerger: Servlet 6.1 section 8.2.3's rules, web.xml over fragments and a document over its annotations. */
class DescriptorMergerTest {

    private static final WebDescriptor EMPTY_WEB_XML = webXml("");

    private static String mergeError(WebDescriptor web, WebDescriptor... fragments) {
        return assertThrows(DescriptorException.class, () -> DescriptorMerger.merge(web, List.of(fragments))).getMessage();
    }

    @Test
    void webXmlWinsOverFragments() {
        WebDescriptor web = webXml("""
              <display-name>main</display-name>
              <context-param><param-name>p</param-name><param-value>web</param-value></context-param>
              <servlet><servlet-name>s</servlet-name><servlet-class>Web</servlet-class>
                <init-param><param-name>i</param-name><param-value>web</param-value></init-param></servlet>
            """);
        WebDescriptor a = fragment("a.jar", """
              <display-name>a</display-name>
              <context-param><param-name>p</param-name><param-value>a</param-value></context-param>
              <servlet><servlet-name>s</servlet-name><servlet-class>A</servlet-class>
                <init-param><param-name>i</param-name><param-value>a</param-value></init-param>
                <init-param><param-name>j</param-name><param-value>a</param-value></init-param>
                <load-on-startup>3</load-on-startup></servlet>
            """);
        WebDescriptor b = fragment("b.jar", """
              <context-param><param-name>p</param-name><param-value>b</param-value></context-param>
              <servlet><servlet-name>s</servlet-name>
                <init-param><param-name>i</param-name><param-value>b</param-value></init-param></servlet>
            """);
        WebDescriptor merged = DescriptorMerger.merge(web, List.of(a, b));
        assertEquals(Optional.of("main"), merged.displayName());
        assertEquals(Map.of("p", "web"), merged.contextParams());
        ServletDefinition servlet = merged.servlet("s").orElseThrow();
        assertEquals(Optional.of("Web"), servlet.className());
        assertEquals(Map.of("i", "web", "j", "a"), servlet.initParams(), "web.xml's value wins, a fragment's new parameter is added");
        assertEquals(Optional.of(3), servlet.loadOnStartup(), "web.xml does not say, the fragment does");
        assertEquals("WEB-INF/web.xml", merged.source());
        assertEquals(DescriptorKind.WEB_APP, merged.kind());
    }

    @Test
    void fragmentsThatAgreeNeedNoWebXml() {
        WebDescriptor a = fragment("a.jar", "<context-param><param-name>p</param-name><param-value>same</param-value></context-param>\n");
        WebDescriptor b = fragment("b.jar", "<context-param><param-name>p</param-name><param-value>same</param-value></context-param>\n");
        assertEquals(Map.of("p", "same"), DescriptorMerger.merge(EMPTY_WEB_XML, List.of(a, b)).contextParams());
    }

    @Test
    void conflictingContextParamsAreAnErrorNamingBothFragments() {
        WebDescriptor a = fragment("lib/a.jar", "<name>A</name><context-param><param-name>p</param-name><param-value>1</param-value></context-param>\n");
        WebDescriptor b = fragment("lib/b.jar", "<context-param><param-name>p</param-name><param-value>2</param-value></context-param>\n");
        assertEquals("<context-param> 'p' is '1' in 'A' (lib/a.jar) but '2' in lib/b.jar, and WEB-INF/web.xml does not settle it",
            mergeError(EMPTY_WEB_XML, a, b));
        // web.xml settles it.
        WebDescriptor web = webXml("<context-param><param-name>p</param-name><param-value>0</param-value></context-param>\n");
        assertEquals(Map.of("p", "0"), DescriptorMerger.merge(web, List.of(a, b)).contextParams());
    }

    @Test
    void conflictingInitParamsOfOneServletAreAnError() {
        WebDescriptor a = fragment("a.jar", """
              <servlet><servlet-name>s</servlet-name><servlet-class>S</servlet-class>
                <init-param><param-name>i</param-name><param-value>1</param-value></init-param></servlet>
            """);
        WebDescriptor b = fragment("b.jar", """
              <servlet><servlet-name>s</servlet-name><servlet-class>S</servlet-class>
                <init-param><param-name>i</param-name><param-value>2</param-value></init-param></servlet>
            """);
        assertEquals("servlet 's': <init-param> 'i' is '1' in a.jar but '2' in b.jar, and WEB-INF/web.xml does not settle it",
            mergeError(EMPTY_WEB_XML, a, b));
    }

    @Test
    void otherConflictsBetweenFragments() {
        assertTrue(mergeError(EMPTY_WEB_XML,
            fragment("a.jar", "<servlet><servlet-name>s</servlet-name><servlet-class>A</servlet-class></servlet>\n"),
            fragment("b.jar", "<servlet><servlet-name>s</servlet-name><servlet-class>B</servlet-class></servlet>\n"))
            .startsWith("servlet 's': <servlet-class> is 'A' in a.jar but 'B' in b.jar"));
        assertTrue(mergeError(EMPTY_WEB_XML,
            fragment("a.jar", "<error-page><error-code>404</error-code><location>/a</location></error-page>\n"),
            fragment("b.jar", "<error-page><error-code>404</error-code><location>/b</location></error-page>\n"))
            .startsWith("<error-page> for '404' is "));
        assertTrue(mergeError(EMPTY_WEB_XML,
            fragment("a.jar", "<session-config><session-timeout>5</session-timeout></session-config>\n"),
            fragment("b.jar", "<session-config><session-timeout>6</session-timeout></session-config>\n"))
            .startsWith("<session-config> is "));
        assertTrue(mergeError(EMPTY_WEB_XML,
            fragment("a.jar", "<env-entry><env-entry-name>n</env-entry-name><env-entry-value>1</env-entry-value></env-entry>\n"),
            fragment("b.jar", "<env-entry><env-entry-name>n</env-entry-name><env-entry-value>2</env-entry-value></env-entry>\n"))
            .startsWith("<env-entry> 'n' is "));
    }

    @Test
    void additiveElementsCombineInOrder() {
        WebDescriptor web = webXml("""
              <listener><listener-class>W</listener-class></listener>
              <filter><filter-name>f</filter-name><filter-class>F</filter-class></filter>
              <filter-mapping><filter-name>f</filter-name><url-pattern>/web/*</url-pattern></filter-mapping>
              <security-role><role-name>admin</role-name></security-role>
            """);
        WebDescriptor a = fragment("a.jar", """
              <listener><listener-class>A</listener-class></listener>
              <listener><listener-class>W</listener-class></listener>
              <filter><filter-name>g</filter-name><filter-class>G</filter-class></filter>
              <filter-mapping><filter-name>g</filter-name><url-pattern>/a/*</url-pattern></filter-mapping>
              <security-role><role-name>user</role-name></security-role>
            """);
        WebDescriptor b = fragment("b.jar", """
              <listener><listener-class>B</listener-class></listener>
              <filter-mapping><filter-name>g</filter-name><url-pattern>/b/*</url-pattern></filter-mapping>
              <security-role><role-name>admin</role-name></security-role>
            """);
        WebDescriptor merged = DescriptorMerger.merge(web, List.of(a, b));
        assertEquals(List.of("W", "A", "B"), merged.listeners());
        assertEquals(List.of("f", "g"), merged.filters().stream().map(FilterDefinition::name).toList());
        assertEquals(List.of(List.of("/web/*"), List.of("/a/*"), List.of("/b/*")),
            merged.filterMappings().stream().map(FilterMapping::urlPatterns).toList());
        assertEquals(List.of("admin", "user"), merged.securityRoles());
        // The other fragment order gives the other order.
        assertEquals(List.of("W", "B", "A"), DescriptorMerger.merge(web, List.of(b, a)).listeners());
    }

    @Test
    void webXmlsUrlPatternsReplaceTheFragmentsForTheSameServlet() {
        WebDescriptor web = webXml("<servlet-mapping><servlet-name>s</servlet-name><url-pattern>/web</url-pattern></servlet-mapping>\n");
        WebDescriptor a = fragment("a.jar", """
              <servlet><servlet-name>s</servlet-name><servlet-class>S</servlet-class></servlet>
              <servlet><servlet-name>t</servlet-name><servlet-class>T</servlet-class></servlet>
              <servlet-mapping><servlet-name>s</servlet-name><url-pattern>/a</url-pattern></servlet-mapping>
              <servlet-mapping><servlet-name>t</servlet-name><url-pattern>/t1</url-pattern></servlet-mapping>
            """);
        WebDescriptor b = fragment("b.jar", "<servlet-mapping><servlet-name>t</servlet-name><url-pattern>/t2</url-pattern></servlet-mapping>\n");
        WebDescriptor merged = DescriptorMerger.merge(web, List.of(a, b));
        assertEquals(List.of(new ServletMapping("s", List.of("/web")), new ServletMapping("t", List.of("/t1")),
            new ServletMapping("t", List.of("/t2"))), merged.servletMappings());
    }

    @Test
    void welcomeFilesAreWebXmlsWhenItHasAny() {
        WebDescriptor a = fragment("a.jar", "<welcome-file-list><welcome-file>a.html</welcome-file></welcome-file-list>\n");
        WebDescriptor b = fragment("b.jar", "<welcome-file-list><welcome-file>b.html</welcome-file></welcome-file-list>\n");
        assertEquals(List.of("a.html", "b.html"), DescriptorMerger.merge(EMPTY_WEB_XML, List.of(a, b)).welcomeFiles());
        WebDescriptor web = webXml("<welcome-file-list><welcome-file>index.html</welcome-file></welcome-file-list>\n");
        assertEquals(List.of("index.html"), DescriptorMerger.merge(web, List.of(a, b)).welcomeFiles());
    }

    @Test
    void distributableOnlyWhenEveryoneSaysSo() {
        WebDescriptor web = webXml("<distributable/>\n");
        WebDescriptor yes = fragment("a.jar", "<distributable/>\n");
        WebDescriptor no = fragment("b.jar", "");
        assertTrue(DescriptorMerger.merge(web, List.of(yes)).distributable());
        assertFalse(DescriptorMerger.merge(web, List.of(yes, no)).distributable());
        assertFalse(DescriptorMerger.merge(EMPTY_WEB_XML, List.of(yes)).distributable());
    }

    @Test
    void metadataCompleteWebXmlIgnoresFragmentsAndAnnotations() {
        WebDescriptor web = Descriptors.parseWebXml("""
            <web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.1" metadata-complete="true">
              <listener><listener-class>W</listener-class></listener>
            </web-app>
            """);
        WebDescriptor a = fragment("a.jar", "<listener><listener-class>A</listener-class></listener>\n");
        assertEquals(List.of("W"), DescriptorMerger.merge(web, List.of(a)).listeners());
        assertEquals(web, DescriptorMerger.overlay(web, annotations(ServletDefinition.of("x", "X"))));
    }

    @Test
    void aMappingOfAServletNobodyDeclaresIsAnError() {
        WebDescriptor web = webXml("<servlet-mapping><servlet-name>x</servlet-name><url-pattern>/x</url-pattern></servlet-mapping>\n");
        assertEquals("WEB-INF/web.xml: <servlet-mapping> names servlet 'x' that no descriptor or annotation declares",
            mergeError(web));
        // A fragment may declare it.
        WebDescriptor a = fragment("a.jar", "<servlet><servlet-name>x</servlet-name><servlet-class>X</servlet-class></servlet>\n");
        assertEquals(1, DescriptorMerger.merge(web, List.of(a)).servlets().size());
        assertEquals("a.jar: <filter-mapping> names filter 'f' that no descriptor or annotation declares",
            mergeError(EMPTY_WEB_XML, fragment("a.jar", "<filter-mapping><filter-name>f</filter-name><url-pattern>/*</url-pattern></filter-mapping>\n")));
    }

    @Test
    void aServletWithoutAClassAnywhereIsAnError() {
        WebDescriptor web = webXml("<servlet><servlet-name>x</servlet-name><load-on-startup>1</load-on-startup></servlet>\n");
        assertEquals("servlet 'x' has neither <servlet-class> nor <jsp-file> in WEB-INF/web.xml, its fragments or annotations", mergeError(web));
        WebDescriptor completed = DescriptorMerger.merge(DescriptorMerger.overlay(web, annotations(ServletDefinition.of("x", "X"))), List.of());
        assertEquals(Optional.of("X"), completed.servlet("x").orElseThrow().className());
        assertEquals(Optional.of(1), completed.servlet("x").orElseThrow().loadOnStartup());
    }

    @Test
    void aDocumentOverridesItsAnnotations() {
        WebDescriptor web = webXml("""
              <servlet><servlet-name>annotated</servlet-name>
                <init-param><param-name>mode</param-name><param-value>descriptor</param-value></init-param></servlet>
              <servlet-mapping><servlet-name>annotated</servlet-name><url-pattern>/from-xml</url-pattern></servlet-mapping>
            """);
        WebDescriptor.Builder annotated = WebDescriptor.builder("WEB-INF/classes", DescriptorKind.ANNOTATIONS);
        annotated.servlets.add(new ServletDefinition("annotated", Optional.of("com.example.Annotated"), Optional.empty(),
            Map.of("mode", "annotation", "other", "1"), Optional.of(-1), Optional.of(true), Optional.empty(), Optional.empty(),
            Optional.empty(), List.of()));
        annotated.servletMappings.add(new ServletMapping("annotated", List.of("/from-annotation")));
        annotated.servlets.add(ServletDefinition.of("plain", "com.example.Plain"));
        annotated.servletMappings.add(new ServletMapping("plain", List.of("/plain")));
        annotated.listeners.add("com.example.Listener");
        WebDescriptor overlaid = DescriptorMerger.overlay(web, annotated.build());
        ServletDefinition servlet = overlaid.servlet("annotated").orElseThrow();
        assertEquals(Optional.of("com.example.Annotated"), servlet.className());
        assertEquals(Map.of("mode", "descriptor", "other", "1"), servlet.initParams());
        assertEquals(Optional.of(true), servlet.asyncSupported());
        assertEquals(List.of(new ServletMapping("annotated", List.of("/from-xml")), new ServletMapping("plain", List.of("/plain"))),
            overlaid.servletMappings());
        assertEquals(List.of("com.example.Listener"), overlaid.listeners());
        assertEquals(DescriptorKind.WEB_APP, overlaid.kind());
    }

    private static WebDescriptor annotations(ServletDefinition servlet) {
        WebDescriptor.Builder builder = WebDescriptor.builder("WEB-INF/classes", DescriptorKind.ANNOTATIONS);
        builder.servlets.add(servlet);
        return builder.build();
    }
}
