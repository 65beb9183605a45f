package io.wharf.servlet;

import static io.wharf.servlet.ServletTester.content;
import static io.wharf.servlet.ServletTester.status;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.stream.Collectors;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;


import org.junit.jupiter.api.Test;

/** The servlet request (Servlet 6.1 chapter 3): parameters, encodings, headers, cookies, locales, the body. */
class ServletRequestTest extends ServletTestCase {

    /** What a test servlet reports about its request. */
    @FunctionalInterface
    interface Report {
        String of(HttpServletRequest request) throws IOException;
    }

    private ServletTester serve(Report report) throws Exception {
        tester("/ctx");
        tester.context.addServlet(new HttpServlet() {
            @Override
            protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
                response.setContentType("text/plain;charset=UTF-8");
                response.getWriter().print(report.of(request));
            }
        }, "/*");
        return tester.start();
    }

    private static String parameters(HttpServletRequest request) {
        return request.getParameterMap().entrySet().stream()
            .map(entry -> entry.getKey() + "=" + Arrays.toString(entry.getValue()))
            .collect(Collectors.joining(" "));
    }

    @Test
    void parametersMergeTheQueryAndAUrlencodedPostBody() throws Exception {
        serve(ServletRequestTest::parameters);
        assertEquals("a=[1, 2] b=[x y] é=[ü]", content(tester.get("/ctx/p?a=1&a=2&b=x+y&%C3%A9=%C3%BC")));
        assertEquals("a=[q, f] c=[3]", content(tester.post("/ctx/p?a=q", "application/x-www-form-urlencoded", "a=f&c=3")));
        assertEquals("a=[q]", content(tester.post("/ctx/p?a=q", "text/plain", "a=f&c=3")), "only a form body is parsed");
        assertEquals("n=[é]", content(tester.post("/ctx/p", "application/x-www-form-urlencoded; charset=UTF-8", "n=%C3%A9")));
    }

    @Test
    void aFormOverTheLimitIsRefused() throws Exception {
        serve(ServletRequestTest::parameters);
        String many = java.util.stream.IntStream.range(0, 2000).mapToObj(i -> "k" + i + "=v").collect(Collectors.joining("&"));
        int status = status(tester.post("/ctx/p", "application/x-www-form-urlencoded", many));
        assertEquals(413, status);
    }

    @Test
    void theBodyIsReadOnceAsBytesOrText() throws Exception {
        serve(request -> {
            String text = new String(request.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            String second;
            try {
                request.getReader();
                second = "reader allowed";
            } catch (IllegalStateException expected) {
                second = "reader refused";
            }
            return text + " " + request.getContentLength() + " " + second + " " + request.getParameterMap().size();
        });
        assertEquals("a=1&b=2 7 reader refused 0", content(tester.post("/ctx/x", "application/x-www-form-urlencoded", "a=1&b=2")));
    }

    @Test
    void theReaderUsesTheRequestsCharset() throws Exception {
        serve(request -> {
            String encoding = request.getCharacterEncoding();
            request.setCharacterEncoding("UTF-8");
            return encoding + " " + request.getReader().readLine();
        });
        assertEquals("null é", content(tester.post("/ctx/x", "text/plain", "é")));
        assertEquals("UTF-16 é", content(tester.post("/ctx/x", "text/plain;charset=UTF-16", "é")).replace("\0", ""));
    }

    @Test
    void headersCookiesAndLocales() throws Exception {
        serve(request -> {
            Cookie[] cookies = request.getCookies();
            String dateError;
            try {
                request.getDateHeader("X-Not-A-Date");
                dateError = "none";
            } catch (IllegalArgumentException expected) {
                dateError = "IllegalArgumentException";
            }
            return request.getHeader("x-multi") + " " + Collections.list(request.getHeaders("X-Multi")) + " "
                + request.getIntHeader("X-Int") + " " + request.getIntHeader("X-None") + " "
                + request.getDateHeader("If-Modified-Since") + " " + dateError + " "
                + Arrays.stream(cookies).map(c -> c.getName() + "=" + c.getValue()).collect(Collectors.joining(",")) + " "
                + request.getLocale() + " " + Collections.list(request.getLocales()) + " "
                + request.getMethod() + " " + request.getProtocol() + " " + request.getScheme() + " "
                + request.getServerName() + ":" + request.getServerPort() + " " + request.getRequestURL() + " "
                + request.getQueryString() + " " + request.isSecure();
        });
        String response = tester.request("""
            GET /ctx/a%20b?q=1 HTTP/1.1
            Host: example.com:8080
            X-Multi: one
            X-Multi: two
            X-Int: 42
            If-Modified-Since: Thu, 01 Jan 1970 00:00:01 GMT
            X-Not-A-Date: yesterday
            Cookie: a=1; b=two
            Accept-Language: da, en-gb;q=0.8, en;q=0.7
            Connection: close

            """);
        assertEquals("one [one, two] 42 -1 1000 IllegalArgumentException a=1,b=two da [da, en_GB, en] GET HTTP/1.1 http "
            + "example.com:8080 http://example.com:8080/ctx/a%20b q=1 false", content(response));
    }

    @Test
    void requestAttributesAreTheRequestsOwnNotTheContexts() throws Exception {
        serve(request -> {
            request.getServletContext().setAttribute("shared", "context");
            Object before = request.getAttribute("shared");
            request.setAttribute("mine", 1);
            return before + " " + request.getAttribute("mine") + " " + Collections.list(request.getAttributeNames());
        });
        assertEquals("null 1 [mine]", content(tester.get("/ctx/x")));
    }

    @Test
    void multipartPartsNeedAMultipartConfig() throws Exception {
        tester("/");
        HttpServlet parts = new HttpServlet() {
            @Override
            protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
                try {
                    StringBuilder out = new StringBuilder();
                    for (var part : request.getParts()) {
                        out.append(part.getName()).append('|').append(part.getSubmittedFileName()).append('|')
                            .append(part.getSize()).append('|').append(new String(part.getInputStream().readAllBytes())).append(';');
                    }
                    out.append(" field=").append(request.getParameter("field"));
                    response.getWriter().print(out);
                } catch (IllegalStateException | jakarta.servlet.ServletException x) {
                    response.getWriter().print(x.getClass().getSimpleName());
                }
            }
        };
        tester.context.addServlet(parts, "/with").setMultipartConfig(new jakarta.servlet.MultipartConfigElement(""));
        tester.context.addServlet(parts, "/small").setMultipartConfig(new jakarta.servlet.MultipartConfigElement("", 5, -1, 0));
        tester.context.addServlet(parts, "/without");
        tester.start();
        String body = """
            --XyZ\r
            Content-Disposition: form-data; name="field"\r
            \r
            value\r
            --XyZ\r
            Content-Disposition: form-data; name="file"; filename="a.txt"\r
            Content-Type: text/plain\r
            \r
            file content\r
            --XyZ--\r
            """;
        assertEquals("field|null|5|value;file|a.txt|12|file content; field=value",
            content(tester.post("/with", "multipart/form-data; boundary=XyZ", body)));
        assertEquals("IllegalStateException", content(tester.post("/without", "multipart/form-data; boundary=XyZ", body)));
        assertEquals("ServletException", content(tester.post("/with", "text/plain", "x")));
        assertEquals("IllegalStateException", content(tester.post("/small", "multipart/form-data; boundary=XyZ", body)),
            "a part over maxFileSize is an IllegalStateException (the getParts javadoc), not an answer of the container's");
    }

    @Test
    void unusedParametersAreNotParsedAndParameterMapIsUnmodifiable() throws Exception {
        serve(request -> {
            Map<String, String[]> map = request.getParameterMap();
            try {
                map.put("x", new String[] {"y"});
                return "modifiable";
            } catch (UnsupportedOperationException expected) {
                return "unmodifiable " + map.keySet();
            }
        });
        assertEquals("unmodifiable [a]", content(tester.get("/ctx/?a=1")));
    }
}
