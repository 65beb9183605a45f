package io.wharf.jsp;

import static io.wharf.jsp.JspTester.content;
import static io.wharf.jsp.JspTester.status;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;


import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Tag libraries found by the TLD scan as the context starts: JSTL's, in a jar on the class
 * path; one in a jar that only the context's own class loader holds, as a web application's
 * WEB-INF/lib jar would be; and one under /WEB-INF in the context's resources.
 */
class JstlTest {

    @RegisterExtension
    final JspTester tester = JspTester.withJsp();

    @Test
    void coreAndFormattingTags() throws Exception {
        tester.page("/list.jsp", """
            <%@ page trimDirectiveWhitespaces="true" %>
            <%@ taglib prefix="c" uri="jakarta.tags.core" %>
            <%@ taglib prefix="fmt" uri="jakarta.tags.fmt" %>
            <%@ taglib prefix="fn" uri="jakarta.tags.functions" %>
            <fmt:setLocale value="en_US"/>
            <c:set var="total" value="${0}"/>
            <c:forEach var="n" items="${fn:split(param.numbers, ',')}" varStatus="status">
              <c:if test="${n % 2 == 0}">[even:${n}@${status.index}]</c:if>
              <c:set var="total" value="${total + n}"/>
            </c:forEach>
            total=<fmt:formatNumber value="${total * 1000.5}" type="number" maxFractionDigits="1"/>
            <c:out value="${param.markup}"/>""").start();
        String response = tester.get("/ctx/list.jsp?numbers=1,2,3,4&markup=%3Cb%3E");
        assertEquals(200, status(response), response);
        assertEquals("[even:2@1][even:4@3]total=10,005&lt;b&gt;", content(response).replaceAll("\\s", ""));
    }

    /** The context's class loader holds a jar with a TLD: the scan finds it there, as in a WAR's WEB-INF/lib. */
    @Test
    void aTagLibraryInAJarOfTheContextsClassLoader() throws Exception {
        Path jar = tester.directory.resolve("greetings.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new JarEntry("META-INF/greetings.tld"));
            out.write(functionLibrary("urn:wharf:greetings", "repeat", "java.lang.String repeat(java.lang.String, int)").getBytes(StandardCharsets.UTF_8));
        }
        try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, getClass().getClassLoader())) {
            tester.context.setClassLoader(loader);
            tester.page("/greet.jsp", """
                <%@ taglib prefix="g" uri="urn:wharf:greetings" %>${g:repeat("ab", 3)}""").start();
            assertEquals("ababab", content(tester.get("/ctx/greet.jsp")).strip());
            tester.close();
        }
    }

    @Test
    void aTagLibraryUnderWebInf() throws Exception {
        tester.page("/WEB-INF/tlds/strings.tld", functionLibrary("urn:wharf:strings", "upper", "java.lang.String upper(java.lang.String)"))
            .page("/shout.jsp", "<%@ taglib prefix=\"s\" uri=\"urn:wharf:strings\" %>${s:upper(\"quiet\")}")
            .start();
        String response = tester.get("/ctx/shout.jsp");
        assertEquals(200, status(response), response);
        assertEquals("QUIET", content(response).strip());
    }

    /** A TLD's listener is added as the context starts, and again after a restart, which forgets it. */
    @Test
    void aTagLibrarysListenerHearsEveryStart() throws Exception {
        tester.page("/WEB-INF/listening.tld", functionLibrary("urn:wharf:listening", "upper", "java.lang.String upper(java.lang.String)")
            .replace("<function>", "<listener><listener-class>" + TldListener.class.getName() + "</listener-class></listener><function>"))
            .page("/l.jsp", "<%@ taglib prefix=\"l\" uri=\"urn:wharf:listening\" %>${l:upper('x')}");
        int before = TldListener.STARTS.get();
        tester.start();
        assertEquals("X", content(tester.get("/ctx/l.jsp")).strip());
        tester.context.stop();
        tester.context.start();
        assertEquals("X", content(tester.get("/ctx/l.jsp")).strip());
        assertEquals(before + 2, TldListener.STARTS.get());
    }

    /** @return a TLD with one EL function, a static method of java.lang.String (no class to compile) */
    private static String functionLibrary(String uri, String name, String signature) {
        return """
            <taglib xmlns="https://jakarta.ee/xml/ns/jakartaee" version="3.0">
              <tlib-version>1.0</tlib-version>
              <short-name>test</short-name>
              <uri>%s</uri>
              <function>
                <name>%s</name>
                <function-class>%s</function-class>
                <function-signature>%s</function-signature>
              </function>
            </taglib>""".formatted(uri, name, TagFunctions.class.getName(), signature);
    }
}
