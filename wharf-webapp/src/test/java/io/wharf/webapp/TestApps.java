package io.wharf.webapp;

import webapps.AnnotatedServlet;
import webapps.AppException;
import webapps.CarelessListener;
import webapps.ContextInfoServlet;
import webapps.EnvServlet;
import webapps.ErrorServlet;
import webapps.FailingServlet;
import webapps.HelloServlet;
import webapps.TraceFilter;
import webapps.UploadServlet;
import webapps.fragment.FragmentServlet;
import webapps.sci.ClockPlugin;
import webapps.sci.Plugin;
import webapps.sci.PluginInitializer;
import webapps.sci.WeatherPlugin;
import webapps.slow.SlowServlet;

/** Test helper: the web applications the tests deploy, as archives. */
final class TestApps {

    private TestApps() {
    }

    /**
     * @return an application using most of the descriptor: servlets from web.xml, an annotation,
     *     a fragment and an initializer; filters, error pages, welcome files, env-entries, session
     *     and encoding settings, static files; and a listener that leaves a thread-local behind
     */
    static Archive full() {
        Archive fragment = new Archive()
            .classes("", FragmentServlet.class)
            .text("META-INF/web-fragment.xml", """
                <?xml version="1.0" encoding="UTF-8"?>
                <web-fragment xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.1">
                  <name>harbour-fragment</name>
                  <servlet>
                    <servlet-name>fragment</servlet-name>
                    <servlet-class>webapps.fragment.FragmentServlet</servlet-class>
                    <init-param><param-name>origin</param-name><param-value>from a jar</param-value></init-param>
                  </servlet>
                  <servlet-mapping><servlet-name>fragment</servlet-name><url-pattern>/fragment</url-pattern></servlet-mapping>
                </web-fragment>
                """);
        Archive plugins = new Archive()
            .classes("", PluginInitializer.class)
            .text("META-INF/services/jakarta.servlet.ServletContainerInitializer", "webapps.sci.PluginInitializer\n");
        return new Archive()
            .webXml("""
                <display-name>Harbour</display-name>
                <listener><listener-class>webapps.CarelessListener</listener-class></listener>
                <context-param><param-name>site</param-name><param-value>the harbour</param-value></context-param>
                <filter>
                  <filter-name>a</filter-name><filter-class>webapps.TraceFilter</filter-class>
                  <init-param><param-name>mark</param-name><param-value>a</param-value></init-param>
                </filter>
                <filter>
                  <filter-name>b</filter-name><filter-class>webapps.TraceFilter</filter-class>
                  <init-param><param-name>mark</param-name><param-value>b</param-value></init-param>
                </filter>
                <filter-mapping><filter-name>b</filter-name><url-pattern>/hello</url-pattern></filter-mapping>
                <filter-mapping><filter-name>a</filter-name><url-pattern>/*</url-pattern></filter-mapping>
                <servlet>
                  <servlet-name>hello</servlet-name><servlet-class>webapps.HelloServlet</servlet-class>
                  <init-param><param-name>greeting</param-name><param-value>ahoy</param-value></init-param>
                  <load-on-startup>1</load-on-startup>
                </servlet>
                <servlet><servlet-name>env</servlet-name><servlet-class>webapps.EnvServlet</servlet-class></servlet>
                <servlet><servlet-name>fail</servlet-name><servlet-class>webapps.FailingServlet</servlet-class></servlet>
                <servlet><servlet-name>error</servlet-name><servlet-class>webapps.ErrorServlet</servlet-class></servlet>
                <servlet><servlet-name>info</servlet-name><servlet-class>webapps.ContextInfoServlet</servlet-class></servlet>
                <servlet>
                  <servlet-name>upload</servlet-name><servlet-class>webapps.UploadServlet</servlet-class>
                  <multipart-config><max-file-size>1024</max-file-size></multipart-config>
                </servlet>
                <servlet-mapping><servlet-name>hello</servlet-name><url-pattern>/hello</url-pattern></servlet-mapping>
                <servlet-mapping><servlet-name>env</servlet-name><url-pattern>/env</url-pattern></servlet-mapping>
                <servlet-mapping><servlet-name>fail</servlet-name><url-pattern>/fail</url-pattern></servlet-mapping>
                <servlet-mapping><servlet-name>error</servlet-name><url-pattern>/error</url-pattern></servlet-mapping>
                <servlet-mapping><servlet-name>info</servlet-name><url-pattern>/info</url-pattern></servlet-mapping>
                <servlet-mapping><servlet-name>upload</servlet-name><url-pattern>/upload</url-pattern></servlet-mapping>
                <session-config>
                  <session-timeout>7</session-timeout>
                  <cookie-config><name>HARBOURSESSION</name><http-only>true</http-only></cookie-config>
                  <tracking-mode>COOKIE</tracking-mode>
                </session-config>
                <mime-mapping><extension>wharf</extension><mime-type>text/x-wharf</mime-type></mime-mapping>
                <welcome-file-list><welcome-file>start.html</welcome-file><welcome-file>index.html</welcome-file></welcome-file-list>
                <error-page><error-code>404</error-code><location>/error</location></error-page>
                <error-page><exception-type>webapps.AppException</exception-type><location>/error</location></error-page>
                <env-entry>
                  <env-entry-name>greeting</env-entry-name><env-entry-type>java.lang.String</env-entry-type>
                  <env-entry-value>ahoy from the environment</env-entry-value>
                </env-entry>
                <env-entry>
                  <env-entry-name>count</env-entry-name><env-entry-type>java.lang.Integer</env-entry-type><env-entry-value>42</env-entry-value>
                </env-entry>
                <resource-ref><res-ref-name>jdbc/store</res-ref-name><res-type>javax.sql.DataSource</res-type></resource-ref>
                <resource-ref><res-ref-name>jdbc/missing</res-ref-name><res-type>javax.sql.DataSource</res-type></resource-ref>
                <request-character-encoding>UTF-8</request-character-encoding>
                <response-character-encoding>UTF-8</response-character-encoding>
                """)
            .classes("WEB-INF/classes/", HelloServlet.class, AnnotatedServlet.class, EnvServlet.class, AppException.class,
                FailingServlet.class, ErrorServlet.class, TraceFilter.class, ContextInfoServlet.class, CarelessListener.class, UploadServlet.class,
                Plugin.class, ClockPlugin.class, WeatherPlugin.class)
            .jar("WEB-INF/lib/fragment.jar", fragment)
            .jar("WEB-INF/lib/plugins.jar", plugins)
            .text("index.html", "<h1>welcome aboard</h1>")
            .text("docs/start.html", "start here")
            .text("notes.wharf", "some notes");
    }

    /** @return an application whose one servlet, at /version, answers {@code version} (and waits at the Gate with ?wait) */
    static Archive slow(String version) {
        return new Archive()
            .webXml("""
                <servlet>
                  <servlet-name>slow</servlet-name><servlet-class>webapps.slow.SlowServlet</servlet-class>
                  <init-param><param-name>version</param-name><param-value>%s</param-value></init-param>
                </servlet>
                <servlet-mapping><servlet-name>slow</servlet-name><url-pattern>/version</url-pattern></servlet-mapping>
                """.formatted(version))
            .classes("WEB-INF/classes/", SlowServlet.class);
    }
}
