package io.wharf.webapp.descriptor;

import static io.wharf.webapp.descriptor.Descriptors.parseWebXml;
import static io.wharf.webapp.descriptor.Descriptors.webXml;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.SessionTrackingMode;
import jakarta.servlet.annotation.ServletSecurity.TransportGuarantee;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** DescriptorParser: each part of web.xml in a small document, then the errors and their messages. */
class DescriptorParserTest {

    @Test
    void readsTheRootAttributesAndSimpleElements() {
        WebDescriptor web = parseWebXml("""
            <?xml version="1.0" encoding="UTF-8"?>
            <web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0" metadata-complete="true">
              <display-name>  Shop  </display-name>
              <distributable/>
              <deny-uncovered-http-methods/>
              <request-character-encoding>UTF-8</request-character-encoding>
              <response-character-encoding> ISO-8859-1 </response-character-encoding>
              <default-context-path>/shop</default-context-path>
            </web-app>
            """);
        assertEquals(DescriptorKind.WEB_APP, web.kind());
        assertEquals(SchemaNamespace.JAKARTA_EE, web.namespace());
        assertFalse(web.namespace().isJavaxServlet());
        assertEquals("6.0", web.version());
        assertTrue(web.metadataComplete());
        assertEquals(Optional.of("Shop"), web.displayName());
        assertTrue(web.distributable());
        assertTrue(web.denyUncoveredHttpMethods());
        assertEquals(Optional.of("UTF-8"), web.requestCharacterEncoding());
        assertEquals(Optional.of("ISO-8859-1"), web.responseCharacterEncoding());
        assertEquals(Optional.of("/shop"), web.defaultContextPath());
        assertEquals("WEB-INF/web.xml", web.source());
    }

    @Test
    void defaultsWhenElementsAreAbsent() {
        WebDescriptor web = webXml("");
        assertFalse(web.metadataComplete());
        assertFalse(web.distributable());
        assertEquals(Optional.empty(), web.displayName());
        assertEquals(List.of(), web.servlets());
        assertEquals(Map.of(), web.contextParams());
        assertEquals(RelativeOrdering.NONE, web.ordering());
        assertEquals(Optional.empty(), web.absoluteOrdering());
    }

    @Test
    void readsServletsWithEverySetting() {
        WebDescriptor web = webXml("""
              <servlet>
                <servlet-name> catalog </servlet-name>
                <servlet-class>
                    com.example.CatalogServlet
                </servlet-class>
                <init-param><param-name>a</param-name><param-value> 1 </param-value></init-param>
                <init-param><param-name>b</param-name><param-value/></init-param>
                <load-on-startup>2</load-on-startup>
                <enabled>false</enabled>
                <async-supported>true</async-supported>
                <run-as><role-name>admin</role-name></run-as>
                <security-role-ref><role-name>mgr</role-name><role-link>manager</role-link></security-role-ref>
                <security-role-ref><role-name>user</role-name></security-role-ref>
                <multipart-config>
                  <location>/tmp</location>
                  <max-file-size>1024</max-file-size>
                  <file-size-threshold>10</file-size-threshold>
                </multipart-config>
              </servlet>
              <servlet>
                <servlet-name>page</servlet-name>
                <jsp-file>/page.jsp</jsp-file>
                <load-on-startup/>
              </servlet>
            """);
        ServletDefinition catalog = web.servlet("catalog").orElseThrow();
        assertEquals(Optional.of("com.example.CatalogServlet"), catalog.className());
        assertEquals(Optional.empty(), catalog.jspFile());
        assertEquals(List.of("a", "b"), List.copyOf(catalog.initParams().keySet()));
        assertEquals("1", catalog.initParams().get("a"));
        assertEquals("", catalog.initParams().get("b"));
        assertEquals(Optional.of(2), catalog.loadOnStartup());
        assertEquals(Optional.of(false), catalog.enabled());
        assertEquals(Optional.of(true), catalog.asyncSupported());
        assertEquals(Optional.of("admin"), catalog.runAs());
        assertEquals(List.of(new SecurityRoleRef("mgr", Optional.of("manager")), new SecurityRoleRef("user", Optional.empty())),
            catalog.securityRoleRefs());
        assertEquals(Optional.of(new MultipartConfig("/tmp", 1024, -1, 10)), catalog.multipartConfig());

        ServletDefinition page = web.servlet("page").orElseThrow();
        assertEquals(Optional.of("/page.jsp"), page.jspFile());
        assertEquals(Optional.empty(), page.className());
        assertEquals(Optional.of(0), page.loadOnStartup(), "an empty <load-on-startup/> is 0");
        assertEquals(Optional.empty(), page.asyncSupported());
    }

    @Test
    void readsMappingsInDocumentOrder() {
        WebDescriptor web = webXml("""
              <servlet><servlet-name>a</servlet-name><servlet-class>A</servlet-class></servlet>
              <filter><filter-name>f</filter-name><filter-class>F</filter-class><async-supported>1</async-supported>
                <init-param><param-name>x</param-name><param-value>y</param-value></init-param></filter>
              <filter><filter-name>g</filter-name><filter-class>G</filter-class></filter>
              <servlet-mapping><servlet-name>a</servlet-name><url-pattern>/a/*</url-pattern><url-pattern>*.do</url-pattern></servlet-mapping>
              <filter-mapping><filter-name>g</filter-name><servlet-name>a</servlet-name></filter-mapping>
              <filter-mapping>
                <filter-name>f</filter-name>
                <url-pattern>/*</url-pattern>
                <servlet-name>*</servlet-name>
                <dispatcher>FORWARD</dispatcher>
                <dispatcher>ERROR</dispatcher>
              </filter-mapping>
              <listener><listener-class>L1</listener-class></listener>
              <listener><listener-class>L2</listener-class></listener>
            """);
        assertEquals(List.of(new ServletMapping("a", List.of("/a/*", "*.do"))), web.servletMappings());
        assertEquals(new FilterDefinition("f", Optional.of("F"), Map.of("x", "y"), Optional.of(true)), web.filter("f").orElseThrow());
        assertEquals(List.of(
            new FilterMapping("g", List.of(), List.of("a"), List.of(DispatcherType.REQUEST)),
            new FilterMapping("f", List.of("/*"), List.of("*"), List.of(DispatcherType.FORWARD, DispatcherType.ERROR))),
            web.filterMappings());
        assertEquals(List.of("L1", "L2"), web.listeners());
    }

    @Test
    void readsParamsMimeLocalesErrorPagesAndWelcomeFiles() {
        WebDescriptor web = webXml("""
              <context-param><param-name>b</param-name><param-value>2</param-value></context-param>
              <context-param><param-name>a</param-name><param-value>1</param-value></context-param>
              <mime-mapping><extension>svg</extension><mime-type>image/svg+xml</mime-type></mime-mapping>
              <locale-encoding-mapping-list>
                <locale-encoding-mapping><locale>ja</locale><encoding>Shift_JIS</encoding></locale-encoding-mapping>
              </locale-encoding-mapping-list>
              <error-page><error-code>404</error-code><location>/404.html</location></error-page>
              <error-page><exception-type>java.io.IOException</exception-type><location>/io.html</location></error-page>
              <error-page><location>/error.html</location></error-page>
              <welcome-file-list><welcome-file>index.html</welcome-file><welcome-file>index.jsp</welcome-file></welcome-file-list>
            """);
        assertEquals(List.of("b", "a"), List.copyOf(web.contextParams().keySet()));
        assertEquals(Map.of("svg", "image/svg+xml"), web.mimeMappings());
        assertEquals(Map.of("ja", "Shift_JIS"), web.localeEncodingMappings());
        assertEquals(List.of(
            new ErrorPage(Optional.of(404), Optional.empty(), "/404.html"),
            new ErrorPage(Optional.empty(), Optional.of("java.io.IOException"), "/io.html"),
            new ErrorPage(Optional.empty(), Optional.empty(), "/error.html")), web.errorPages());
        assertTrue(web.errorPages().get(2).isDefault());
        assertFalse(web.errorPages().get(0).isDefault());
        assertEquals(List.of("index.html", "index.jsp"), web.welcomeFiles());
    }

    @Test
    void readsSessionConfig() {
        WebDescriptor web = webXml("""
              <session-config>
                <session-timeout>30</session-timeout>
                <cookie-config>
                  <name>SID</name><domain>example.com</domain><path>/</path>
                  <http-only>true</http-only><secure>false</secure><max-age>600</max-age>
                  <attribute><attribute-name>SameSite</attribute-name><attribute-value>Strict</attribute-value></attribute>
                  <attribute><attribute-name>Partitioned</attribute-name><attribute-value/></attribute>
                </cookie-config>
                <tracking-mode>COOKIE</tracking-mode>
                <tracking-mode>URL</tracking-mode>
              </session-config>
            """);
        SessionConfig session = web.sessionConfig().orElseThrow();
        assertEquals(Optional.of(30), session.timeoutMinutes());
        assertEquals(List.of(SessionTrackingMode.COOKIE, SessionTrackingMode.URL), session.trackingModes());
        CookieConfig cookie = session.cookieConfig().orElseThrow();
        assertEquals(Optional.of("SID"), cookie.name());
        assertEquals(Optional.of("example.com"), cookie.domain());
        assertEquals(Optional.of("/"), cookie.path());
        assertEquals(Optional.empty(), cookie.comment());
        assertEquals(Optional.of(true), cookie.httpOnly());
        assertEquals(Optional.of(false), cookie.secure());
        assertEquals(Optional.of(600), cookie.maxAge());
        assertEquals(List.of("SameSite", "Partitioned"), List.copyOf(cookie.attributes().keySet()));
        assertEquals("", cookie.attributes().get("Partitioned"));
    }

    @Test
    void readsSecurity() {
        WebDescriptor web = webXml("""
              <security-constraint>
                <display-name>admin area</display-name>
                <web-resource-collection>
                  <web-resource-name>admin</web-resource-name>
                  <url-pattern>/admin/*</url-pattern>
                  <http-method>GET</http-method><http-method>POST</http-method>
                </web-resource-collection>
                <web-resource-collection>
                  <web-resource-name>rest</web-resource-name>
                  <url-pattern>/rest/*</url-pattern>
                  <http-method-omission>OPTIONS</http-method-omission>
                </web-resource-collection>
                <auth-constraint><role-name>admin</role-name></auth-constraint>
                <user-data-constraint><transport-guarantee>CONFIDENTIAL</transport-guarantee></user-data-constraint>
              </security-constraint>
              <security-constraint>
                <web-resource-collection><web-resource-name>closed</web-resource-name><url-pattern>/closed/*</url-pattern></web-resource-collection>
                <auth-constraint/>
              </security-constraint>
              <security-constraint>
                <web-resource-collection><web-resource-name>open</web-resource-name><url-pattern>/open/*</url-pattern></web-resource-collection>
              </security-constraint>
              <login-config>
                <auth-method>FORM</auth-method>
                <realm-name>shop</realm-name>
                <form-login-config><form-login-page>/login</form-login-page><form-error-page>/denied</form-error-page></form-login-config>
              </login-config>
              <security-role><role-name>admin</role-name></security-role>
              <security-role><role-name>user</role-name></security-role>
            """);
        SecurityConstraint admin = web.securityConstraints().get(0);
        assertEquals(Optional.of("admin area"), admin.displayName());
        assertEquals(List.of(
            new WebResourceCollection("admin", List.of("/admin/*"), List.of("GET", "POST"), List.of()),
            new WebResourceCollection("rest", List.of("/rest/*"), List.of(), List.of("OPTIONS"))), admin.collections());
        assertEquals(Optional.of(new AuthConstraint(List.of("admin"))), admin.authConstraint());
        assertEquals(Optional.of(TransportGuarantee.CONFIDENTIAL), admin.transportGuarantee());

        SecurityConstraint closed = web.securityConstraints().get(1);
        assertTrue(closed.authConstraint().orElseThrow().deniesAll(), "an empty <auth-constraint/> denies everyone");
        assertEquals(Optional.empty(), closed.transportGuarantee());
        assertEquals(Optional.empty(), web.securityConstraints().get(2).authConstraint(), "no <auth-constraint>: no authentication");

        assertEquals(new LoginConfig(Optional.of("FORM"), Optional.of("shop"), Optional.of("/login"), Optional.of("/denied")),
            web.loginConfig().orElseThrow());
        assertEquals(List.of("admin", "user"), web.securityRoles());
    }

    @Test
    void readsJspConfigEnvEntriesAndResourceRefs() {
        WebDescriptor web = webXml("""
              <jsp-config>
                <taglib><taglib-uri>http://example.com/tags</taglib-uri><taglib-location>/WEB-INF/tags.tld</taglib-location></taglib>
                <jsp-property-group>
                  <url-pattern>*.jsp</url-pattern>
                  <el-ignored>false</el-ignored>
                  <page-encoding>UTF-8</page-encoding>
                  <include-prelude>/head.jspf</include-prelude>
                  <include-coda>/foot.jspf</include-coda>
                </jsp-property-group>
              </jsp-config>
              <env-entry>
                <env-entry-name>maxItems</env-entry-name>
                <env-entry-type>java.lang.Integer</env-entry-type>
                <env-entry-value>10</env-entry-value>
              </env-entry>
              <env-entry><env-entry-name>other</env-entry-name><lookup-name>java:global/other</lookup-name></env-entry>
              <resource-ref>
                <res-ref-name>jdbc/shop</res-ref-name>
                <res-type>javax.sql.DataSource</res-type>
                <res-auth>Container</res-auth>
                <res-sharing-scope>Shareable</res-sharing-scope>
              </resource-ref>
            """);
        JspConfig jsp = web.jspConfig().orElseThrow();
        assertEquals(List.of(new JspConfig.Taglib("http://example.com/tags", "/WEB-INF/tags.tld")), jsp.taglibs());
        assertEquals(List.of(new JspPropertyGroup(List.of("*.jsp"), Map.of("el-ignored", "false", "page-encoding", "UTF-8"),
            List.of("/head.jspf"), List.of("/foot.jspf"))), jsp.propertyGroups());
        assertEquals(List.of(
            new EnvEntry("maxItems", Optional.of("java.lang.Integer"), Optional.of("10"), Optional.empty()),
            new EnvEntry("other", Optional.empty(), Optional.empty(), Optional.of("java:global/other"))), web.envEntries());
        assertEquals(List.of(new ResourceRef("jdbc/shop", Optional.of("javax.sql.DataSource"), Optional.of("Container"),
            Optional.of("Shareable"), Optional.empty())), web.resourceRefs());
    }

    @Test
    void readsAbsoluteOrdering() {
        WebDescriptor web = webXml("""
              <absolute-ordering><name>a</name><others/><name>b</name></absolute-ordering>
            """);
        assertEquals(Optional.of(new AbsoluteOrdering(List.of("a", "b"), OptionalInt.of(1))), web.absoluteOrdering());
        WebDescriptor closed = webXml("<absolute-ordering><name>x</name></absolute-ordering>\n");
        assertEquals(OptionalInt.empty(), closed.absoluteOrdering().orElseThrow().othersPosition());
    }

    @Test
    void readsAFragmentsNameAndOrdering() {
        WebDescriptor fragment = Descriptors.fragment("lib/a.jar!/META-INF/web-fragment.xml", """
              <name>A</name>
              <ordering><after><name>B</name><others/></after><before><name>C</name></before></ordering>
              <listener><listener-class>AL</listener-class></listener>
            """);
        assertEquals(DescriptorKind.WEB_FRAGMENT, fragment.kind());
        assertEquals(Optional.of("A"), fragment.fragmentName());
        assertEquals(new RelativeOrdering(List.of("C"), false, List.of("B"), true), fragment.ordering());
        assertEquals(List.of("AL"), fragment.listeners());
    }

    @ParameterizedTest
    @ValueSource(strings = {"5.0", "6.0", "6.1"})
    void readsEveryJakartaVersion(String version) {
        WebDescriptor web = parseWebXml("<web-app xmlns='https://jakarta.ee/xml/ns/jakartaee' version='" + version + "'/>");
        assertEquals(version, web.version());
    }

    @Test
    void readsJavaEeDocumentsButMarksThem() {
        WebDescriptor jcp = parseWebXml("""
            <web-app xmlns="http://xmlns.jcp.org/xml/ns/javaee" version="4.0">
              <servlet><servlet-name>old</servlet-name><servlet-class>Old</servlet-class></servlet>
            </web-app>
            """);
        assertEquals(SchemaNamespace.JAVA_EE_JCP, jcp.namespace());
        assertTrue(jcp.namespace().isJavaxServlet());
        assertEquals("4.0", jcp.version());
        assertEquals(1, jcp.servlets().size());

        WebDescriptor sun = parseWebXml("<web-app xmlns='http://java.sun.com/xml/ns/javaee' version='3.0'/>");
        assertEquals(SchemaNamespace.JAVA_EE_SUN, sun.namespace());
        assertTrue(sun.namespace().isJavaxServlet());

        WebDescriptor dtd = parseWebXml("""
            <!DOCTYPE web-app PUBLIC "-//Sun Microsystems, Inc.//DTD Web Application 2.3//EN" "http://java.sun.com/dtd/web-app_2_3.dtd">
            <web-app><display-name>legacy</display-name></web-app>
            """);
        assertEquals(SchemaNamespace.NONE, dtd.namespace());
        assertTrue(dtd.namespace().isJavaxServlet());
        assertEquals(Optional.of("legacy"), dtd.displayName());
    }

    @Test
    void ignoresElementsOfOtherNamespacesAndUnmodelledOnes() {
        WebDescriptor web = parseWebXml("""
            <web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" xmlns:x="urn:vendor" version="6.1">
              <x:servlet><x:servlet-name>vendor</x:servlet-name></x:servlet>
              <ejb-ref><ejb-ref-name>ejb/x</ejb-ref-name></ejb-ref>
              <description>an app</description>
            </web-app>
            """);
        assertEquals(List.of(), web.servlets());
    }

    @Test
    void displayNamesInSeveralLanguagesKeepTheFirst() {
        WebDescriptor web = webXml("""
              <display-name xml:lang="en">Shop</display-name>
              <display-name xml:lang="fr">Boutique</display-name>
            """);
        assertEquals(Optional.of("Shop"), web.displayName());
    }

    @Test
    void textOfOtherNamespacesIsNotTaken() {
        WebDescriptor web = parseWebXml("""
            <web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" xmlns:x="urn:vendor" version="6.1">
              <display-name>shop<x:note>vendor text</x:note></display-name>
            </web-app>
            """);
        assertEquals(Optional.of("shop"), web.displayName());
    }

    @Test
    void readsAFile(@TempDir Path directory) throws Exception {
        Path file = directory.resolve("web.xml");
        Files.writeString(file, "<web-app xmlns='https://jakarta.ee/xml/ns/jakartaee' version='6.1'><display-name>f</display-name></web-app>");
        WebDescriptor web = new DescriptorParser().parseWebXml(file);
        assertEquals(Optional.of("f"), web.displayName());
        assertEquals(file.toString(), web.source());
    }

    // --- errors ---

    private static String error(String body) {
        return assertThrows(DescriptorException.class, () -> webXml(body)).getMessage();
    }

    @Test
    void duplicateServletNameIsAnErrorAtItsLine() {
        assertEquals("WEB-INF/web.xml line 3: duplicate <servlet-name> 'a'", error("""
              <servlet><servlet-name>a</servlet-name><servlet-class>A</servlet-class></servlet>
              <servlet><servlet-name>a</servlet-name><servlet-class>B</servlet-class></servlet>
            """));
    }

    @Test
    void loadOnStartupMustBeAnInteger() {
        assertEquals("WEB-INF/web.xml line 4: <load-on-startup> 'soon' is not an integer", error("""
              <servlet>
                <servlet-name>a</servlet-name>
                <load-on-startup>soon</load-on-startup>
              </servlet>
            """));
    }

    @Test
    void mappingOfAnUndeclaredServletIsAnErrorWhenMetadataIsComplete() {
        String message = assertThrows(DescriptorException.class, () -> parseWebXml("""
            <web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.1" metadata-complete="true">
              <servlet><servlet-name>a</servlet-name><servlet-class>A</servlet-class></servlet>
              <servlet-mapping><servlet-name>x</servlet-name><url-pattern>/x</url-pattern></servlet-mapping>
            </web-app>
            """)).getMessage();
        assertEquals("WEB-INF/web.xml line 3: <servlet-mapping> names servlet 'x' that is not declared", message);
        // The declaration may follow the mapping.
        WebDescriptor later = parseWebXml("""
            <web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.1" metadata-complete="true">
              <servlet-mapping><servlet-name>a</servlet-name><url-pattern>/a</url-pattern></servlet-mapping>
              <filter-mapping><filter-name>f</filter-name><url-pattern>/*</url-pattern></filter-mapping>
              <servlet><servlet-name>a</servlet-name><servlet-class>A</servlet-class></servlet>
              <filter><filter-name>f</filter-name><filter-class>F</filter-class></filter>
            </web-app>
            """);
        assertEquals(1, later.servletMappings().size());
        assertEquals("WEB-INF/web.xml line 2: <filter-mapping> names filter 'g' that is not declared",
            assertThrows(DescriptorException.class, () -> parseWebXml("""
                <web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.1" metadata-complete="true">
                  <filter-mapping><filter-name>g</filter-name><url-pattern>/*</url-pattern></filter-mapping>
                </web-app>
                """)).getMessage());
        // Without metadata-complete an annotation or a fragment may declare it: the merger checks.
        assertEquals(1, webXml("<servlet-mapping><servlet-name>x</servlet-name><url-pattern>/x</url-pattern></servlet-mapping>\n")
            .servletMappings().size());
    }

    @Test
    void errorMessagesNameTheElementAndTheProblem() {
        assertEquals("WEB-INF/web.xml line 2: <async-supported> 'yes' is not true or false",
            error("<filter><filter-name>f</filter-name><async-supported>yes</async-supported></filter>\n"));
        assertEquals("WEB-INF/web.xml line 2: <servlet> has no <servlet-name>", error("<servlet><servlet-class>A</servlet-class></servlet>\n"));
        assertEquals("WEB-INF/web.xml line 2: servlet 'a' has both <servlet-class> and <jsp-file>",
            error("<servlet><servlet-name>a</servlet-name><servlet-class>A</servlet-class><jsp-file>/a.jsp</jsp-file></servlet>\n"));
        assertEquals("WEB-INF/web.xml line 2: <servlet-mapping> for servlet 'a' has no <url-pattern>",
            error("<servlet-mapping><servlet-name>a</servlet-name></servlet-mapping>\n"));
        assertEquals("WEB-INF/web.xml line 2: <filter-mapping> for filter 'f' has neither <url-pattern> nor <servlet-name>",
            error("<filter-mapping><filter-name>f</filter-name></filter-mapping>\n"));
        assertEquals("WEB-INF/web.xml line 2: <dispatcher> 'sometimes' is not one of [FORWARD, INCLUDE, REQUEST, ASYNC, ERROR]",
            error("<filter-mapping><filter-name>f</filter-name><url-pattern>/*</url-pattern><dispatcher>sometimes</dispatcher></filter-mapping>\n"));
        assertEquals("WEB-INF/web.xml line 3: duplicate <filter-name> 'f'",
            error("<filter><filter-name>f</filter-name></filter>\n<filter><filter-name>f</filter-name></filter>\n"));
        assertEquals("WEB-INF/web.xml line 3: duplicate <context-param> 'p'", error("""
              <context-param><param-name>p</param-name><param-value>1</param-value></context-param>
              <context-param><param-name>p</param-name><param-value>2</param-value></context-param>
            """));
        assertEquals("WEB-INF/web.xml line 4: duplicate <init-param> of servlet 'a': 'p'", error("""
              <servlet><servlet-name>a</servlet-name>
                <init-param><param-name>p</param-name></init-param>
                <init-param><param-name>p</param-name></init-param>
              </servlet>
            """));
        assertEquals("WEB-INF/web.xml line 3: <session-config> may appear only once",
            error("<session-config/>\n<session-config/>\n"));
        assertEquals("WEB-INF/web.xml line 2: <ordering> belongs in web-fragment.xml", error("<ordering/>\n"));
        assertEquals("WEB-INF/web.xml line 2: <absolute-ordering> names 'a' twice",
            error("<absolute-ordering><name>a</name><name>a</name></absolute-ordering>\n"));
        assertEquals("WEB-INF/web.xml line 2: <transport-guarantee> 'SOME' is not one of [NONE, CONFIDENTIAL]", error("""
              <security-constraint><web-resource-collection><url-pattern>/a</url-pattern></web-resource-collection><user-data-constraint><transport-guarantee>SOME</transport-guarantee></user-data-constraint></security-constraint>
            """));
        assertEquals("WEB-INF/web.xml line 3: duplicate <error-page> for '404'", error("""
              <error-page><error-code>404</error-code><location>/a</location></error-page>
              <error-page><error-code>404</error-code><location>/b</location></error-page>
            """));
        assertEquals("WEB-INF/web.xml line 2: <web-resource-collection> has both <http-method> and <http-method-omission>", error("""
              <security-constraint><web-resource-collection><url-pattern>/a</url-pattern><http-method>GET</http-method><http-method-omission>PUT</http-method-omission></web-resource-collection></security-constraint>
            """));
    }

    @Test
    void rootErrors() {
        assertEquals("WEB-INF/web.xml line 1: the root element is <web-fragment>, not <web-app>", assertThrows(DescriptorException.class,
            () -> parseWebXml("<web-fragment xmlns='https://jakarta.ee/xml/ns/jakartaee' version='6.1'/>")).getMessage());
        assertEquals("WEB-INF/web.xml line 1: version '7.0' is not one this server reads (5.0, 6.0, 6.1)", assertThrows(DescriptorException.class,
            () -> parseWebXml("<web-app xmlns='https://jakarta.ee/xml/ns/jakartaee' version='7.0'/>")).getMessage());
        assertEquals("WEB-INF/web.xml line 1: <web-app> has no version attribute (5.0, 6.0 or 6.1)", assertThrows(DescriptorException.class,
            () -> parseWebXml("<web-app xmlns='https://jakarta.ee/xml/ns/jakartaee'/>")).getMessage());
        assertEquals("WEB-INF/web.xml line 1: <web-app> is in namespace 'urn:other', not https://jakarta.ee/xml/ns/jakartaee",
            assertThrows(DescriptorException.class, () -> parseWebXml("<web-app xmlns='urn:other' version='6.1'/>")).getMessage());
        assertEquals("WEB-INF/web.xml line 1: metadata-complete 'maybe' is not true or false", assertThrows(DescriptorException.class,
            () -> parseWebXml("<web-app xmlns='https://jakarta.ee/xml/ns/jakartaee' version='6.1' metadata-complete='maybe'/>")).getMessage());
    }

    @Test
    void malformedXmlNamesTheLine() {
        String message = assertThrows(DescriptorException.class, () -> parseWebXml("""
            <web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.1">
              <servlet>
            </web-app>
            """)).getMessage();
        assertTrue(message.startsWith("WEB-INF/web.xml line 3: not well-formed XML: "), message);
    }

    @Test
    void refusesExternalEntities(@TempDir Path directory) throws Exception {
        Path secret = directory.resolve("secret.txt");
        Files.writeString(secret, "TOP-SECRET");
        String document = """
            <?xml version="1.0"?>
            <!DOCTYPE web-app [ <!ENTITY secret SYSTEM "%s"> ]>
            <web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.1">
              <display-name>&secret;</display-name>
            </web-app>
            """.formatted(secret.toUri());
        DescriptorException failure = assertThrows(DescriptorException.class, () -> parseWebXml(document));
        assertTrue(failure.getMessage().startsWith("WEB-INF/web.xml line 4: "), failure.getMessage());
        assertFalse(failure.getMessage().contains("TOP-SECRET"));
    }

    @Test
    void refusesEntityExpansion() {
        String document = """
            <?xml version="1.0"?>
            <!DOCTYPE web-app [ <!ENTITY a "aaaaaaaaaa"> <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"> ]>
            <web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.1"><display-name>&b;</display-name></web-app>
            """;
        assertThrows(DescriptorException.class, () -> parseWebXml(document));
    }

    @Test
    void refusesADocumentOverTheLimit() throws Exception {
        byte[] document = ("<web-app xmlns='https://jakarta.ee/xml/ns/jakartaee' version='6.1'>" + " ".repeat(200) + "</web-app>")
            .getBytes(StandardCharsets.UTF_8);
        DescriptorParser small = new DescriptorParser(100);
        assertEquals("big.xml: larger than the limit of 100 bytes", assertThrows(DescriptorException.class,
            () -> small.parseWebXml("big.xml", new ByteArrayInputStream(document))).getMessage());
        DescriptorParser enough = new DescriptorParser(document.length);
        assertEquals(SchemaNamespace.JAKARTA_EE, enough.parseWebXml("big.xml", new ByteArrayInputStream(document)).namespace());
    }

    @Test
    void theModelIsImmutable() {
        WebDescriptor web = webXml("<listener><listener-class>L</listener-class></listener>\n");
        assertThrows(UnsupportedOperationException.class, () -> web.listeners().add("M"));
        assertThrows(UnsupportedOperationException.class, () -> web.contextParams().put("a", "b"));
    }
}
