package io.wharf.jsp;

import static io.wharf.jsp.JspTester.content;
import static io.wharf.jsp.JspTester.header;
import static io.wharf.jsp.JspTester.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;


import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Pages compiled by Jasper and run by the context: scriptlets and EL, the include and forward
 * actions, the page directive's content type, XML syntax, the session, and what a client
 * sees of a page that does not compile or is not there.
 */
class JspPageTest {

    @RegisterExtension
    final JspTester tester = JspTester.withJsp();

    @Test
    void scriptletsAndExpressionLanguage() throws Exception {
        tester.page("/hello.jsp", """
            <%! private int twice(int n) { return 2 * n; } %>
            <% int sum = 0; for (int i = 1; i <= 4; i++) { sum += i; } request.setAttribute("sum", sum); %>
            sum=<%= sum %> twice=<%= twice(sum) %> name=${param.name} path=${pageContext.request.contextPath} \
            el=${sum * 3} empty=${empty param.missing}""").start();
        String response = tester.get("/ctx/hello.jsp?name=wharf");
        assertEquals(200, status(response), response);
        assertEquals("sum=10 twice=20 name=wharf path=/ctx el=30 empty=true", content(response).strip());
        assertEquals("text/html;charset=ISO-8859-1", header(response, "Content-Type"));
    }

    @Test
    void includeAndForwardActions() throws Exception {
        tester.page("/main.jsp", """
            before <jsp:include page="/parts/part.jsp"><jsp:param name="who" value="main"/></jsp:include> after""")
            .page("/parts/part.jsp", "<%@ page trimDirectiveWhitespaces=\"true\" %>[part for ${param.who}, "
                + "included ${requestScope['jakarta.servlet.include.servlet_path']}]")
            .page("/go.jsp", """
                <% request.setAttribute("from", "go"); %>ignored<jsp:forward page="/target.jsp"><jsp:param name="x" value="1"/></jsp:forward>""")
            .page("/target.jsp", "target from=${from} x=${param.x} path=<%= request.getServletPath() %>")
            .start();
        assertEquals("before [part for main, included /parts/part.jsp] after", content(tester.get("/ctx/main.jsp")).strip());
        String forwarded = tester.get("/ctx/go.jsp");
        assertEquals(200, status(forwarded), forwarded);
        assertEquals("target from=go x=1 path=/target.jsp", content(forwarded).strip());
    }

    @Test
    void thePageDirectiveSetsTheContentTypeAndCharset() throws Exception {
        tester.page("/latin.jsp", "<%@ page contentType=\"text/plain; charset=ISO-8859-1\" pageEncoding=\"UTF-8\" %>café")
            .page("/utf8.jsp", "<%@ page contentType=\"application/json;charset=UTF-8\" %>{\"drink\": \"café ☕\"}")
            .start();
        String latin = tester.get("/ctx/latin.jsp");
        assertEquals("text/plain;charset=ISO-8859-1", header(latin, "Content-Type"));
        assertTrue(latin.endsWith("caf\u00e9"), "one byte for é: " + latin);
        String utf8 = tester.get("/ctx/utf8.jsp");
        assertEquals("application/json;charset=UTF-8", header(utf8, "Content-Type"));
        assertEquals("{\"drink\": \"café ☕\"}", content(utf8));
        assertEquals(String.valueOf("{\"drink\": \"café ☕\"}".getBytes(StandardCharsets.UTF_8).length), header(utf8, "Content-Length"));
    }

    @Test
    void aPageInXmlSyntax() throws Exception {
        tester.page("/doc.jspx", """
            <jsp:root xmlns:jsp="http://java.sun.com/JSP/Page" version="2.0">
              <jsp:directive.page contentType="text/plain"/>
              <jsp:scriptlet>int n = 6 * 7;</jsp:scriptlet>answer=<jsp:expression>n</jsp:expression> q=${param.q}</jsp:root>""")
            .start();
        String response = tester.get("/ctx/doc.jspx?q=x");
        assertEquals(200, status(response), response);
        assertEquals("answer=42 q=x", content(response).strip());
    }

    @Test
    void aPageKeepsStateInTheSession() throws Exception {
        tester.page("/count.jsp", """
            <%@ page session="true" %><%
              Integer visits = (Integer) session.getAttribute("visits");
              visits = visits == null ? 1 : visits + 1;
              session.setAttribute("visits", visits);
            %>visits=${sessionScope.visits} new=<%= session.isNew() %>""").start();
        String first = tester.get("/ctx/count.jsp");
        assertEquals("visits=1 new=true", content(first).strip());
        String cookie = header(first, "Set-Cookie");
        assertNotNull(cookie, first);
        String second = tester.get("/ctx/count.jsp", "Cookie: " + cookie.substring(0, cookie.indexOf(';')));
        assertEquals("visits=2 new=false", content(second).strip());
    }

    /** Jasper's message names the page, the line and the source: it goes to the log, never to the client. */
    @Test
    void aPageThatDoesNotCompileAnswers500WithoutDetails() throws Exception {
        tester.page("/broken.jsp", "<% int x = \"not a number\"; String secretValue = 1; %>broken").start();
        String response = tester.get("/ctx/broken.jsp");
        assertEquals(500, status(response), response);
        for (String detail : new String[] {"secret", "not a number", "broken.jsp", "Exception", "org.apache", "\tat ", "line"}) {
            assertFalse(response.contains(detail), detail + " reached the client: " + response);
        }
        // It stays broken, and so stays quiet, on the next request.
        assertEquals(500, status(tester.get("/ctx/broken.jsp")));
    }

    @Test
    void aMissingPageIsNotFound() throws Exception {
        tester.start();
        assertEquals(404, status(tester.get("/ctx/nothing.jsp")));
        assertEquals(404, status(tester.get("/ctx/WEB-INF/nothing.jsp")));
    }
}
