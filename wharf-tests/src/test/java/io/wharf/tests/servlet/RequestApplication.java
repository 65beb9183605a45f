package io.wharf.tests.servlet;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;

import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;

/**
 * The test application of the request (Servlet 6.1 chapter 3): one servlet at {@code /r/*}
 * whose path info picks what it prints — {@code /parameters}, {@code /encoding},
 * {@code /headers}, {@code /cookies}, {@code /locales}, {@code /basics}.
 */
final class RequestApplication implements ServletContainerInitializer {

    @Override
    public void onStartup(Set<Class<?>> classes, ServletContext context) {
        context.addServlet("request", new PrintingServlet((request, response) -> switch (String.valueOf(request.getPathInfo())) {
            case "/parameters" -> parameters(request);
            case "/encoding" -> encoding(request);
            case "/headers" -> headers(request);
            case "/cookies" -> cookies(request);
            case "/locales" -> locales(request);
            case "/basics" -> basics(request);
            default -> List.of("no case " + request.getPathInfo());
        })).addMapping("/r/*");
    }

    /** The parameters (section 3.1): the map in its order, one name's values, the query string. */
    private static List<String> parameters(HttpServletRequest request) {
        List<String> lines = new ArrayList<>();
        lines.add("queryString=" + request.getQueryString());
        request.getParameterMap().forEach((name, values) -> lines.add("map[" + name + "]=" + Arrays.toString(values)));
        lines.add("names=" + Collections.list(request.getParameterNames()));
        lines.add("getParameter(a)=" + request.getParameter("a"));
        lines.add("getParameterValues(a)=" + Arrays.toString(request.getParameterValues("a")));
        lines.add("getParameter(missing)=" + request.getParameter("missing"));
        return lines;
    }

    /** @return the parameter map as one line: names in the map's order, each with its values */
    static String parameterMap(HttpServletRequest request) {
        StringBuilder text = new StringBuilder("{");
        request.getParameterMap().forEach((name, values) -> text.append(text.length() > 1 ? ", " : "").append(name)
            .append('=').append(Arrays.toString(values)));
        return text.append('}').toString();
    }

    /** The request's character encoding (section 3.12) before and after it is set, then the parameters decoded with it. */
    private static List<String> encoding(HttpServletRequest request) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("contentType=" + request.getContentType());
        lines.add("contentLength=" + request.getContentLength() + " long=" + request.getContentLengthLong());
        lines.add("characterEncoding=" + request.getCharacterEncoding());
        String wanted = request.getHeader("X-Set-Encoding");
        if (wanted != null) {
            try {
                request.setCharacterEncoding(wanted);
                lines.add("set " + wanted + ": characterEncoding=" + request.getCharacterEncoding());
            } catch (IOException e) {
                lines.add("set " + wanted + ": " + e.getClass().getSimpleName());
            }
        }
        lines.add("getParameter(name)=" + visible(request.getParameter("name")));
        String late = request.getHeader("X-Set-Encoding-Late");
        if (late != null) {
            request.setCharacterEncoding(late);
            lines.add("late.characterEncoding=" + request.getCharacterEncoding());
            lines.add("late.getParameter(name)=" + visible(request.getParameter("name")));
        }
        return lines;
    }

    /** The header accessors (section 3.4): a list, a repeated field, int and date conversions and their errors. */
    private static List<String> headers(HttpServletRequest request) {
        List<String> lines = new ArrayList<>();
        lines.add("getHeader(X-A)=" + request.getHeader("X-A"));
        lines.add("getHeader(x-a)=" + request.getHeader("x-a"));
        lines.add("getHeaders(X-A)=" + Collections.list(request.getHeaders("X-A")));
        lines.add("getHeaders(missing)=" + Collections.list(request.getHeaders("missing")));
        lines.add("getHeader(X-Empty)=[" + request.getHeader("X-Empty") + "]");
        lines.add("getHeader(X-Folded)=[" + request.getHeader("X-Folded") + "]");
        lines.add("getIntHeader(X-Int)=" + call(() -> request.getIntHeader("X-Int")));
        lines.add("getIntHeader(X-Not-Int)=" + call(() -> request.getIntHeader("X-Not-Int")));
        lines.add("getIntHeader(missing)=" + call(() -> request.getIntHeader("missing")));
        lines.add("getDateHeader(If-Modified-Since)=" + call(() -> request.getDateHeader("If-Modified-Since")));
        lines.add("getDateHeader(X-Rfc850)=" + call(() -> request.getDateHeader("X-Rfc850")));
        lines.add("getDateHeader(X-Asctime)=" + call(() -> request.getDateHeader("X-Asctime")));
        lines.add("getDateHeader(X-Not-Date)=" + call(() -> request.getDateHeader("X-Not-Date")));
        lines.add("getDateHeader(missing)=" + call(() -> request.getDateHeader("missing")));
        return lines;
    }

    /** The cookies (section 3.9) as the container parsed them from the Cookie fields. */
    private static List<String> cookies(HttpServletRequest request) {
        Cookie[] cookies = request.getCookies();
        if (cookies == null) {
            return List.of("getCookies()=null");
        }
        List<String> lines = new ArrayList<>();
        for (Cookie cookie : cookies) {
            lines.add("cookie " + visible(cookie.getName()) + "=[" + visible(cookie.getValue()) + "] path=" + cookie.getPath()
                + " domain=" + cookie.getDomain() + " maxAge=" + cookie.getMaxAge());
        }
        return lines;
    }

    /** The locales (section 3.11) from Accept-Language. */
    private static List<String> locales(HttpServletRequest request) {
        return List.of("getLocale()=" + request.getLocale().toLanguageTag(),
            "getLocales()=" + Collections.list(request.getLocales()).stream().map(locale -> locale.toLanguageTag()).toList());
    }

    /** What the request says of itself and its connection. */
    private static List<String> basics(HttpServletRequest request) {
        return List.of(
            "method=" + request.getMethod(),
            "protocol=" + request.getProtocol(),
            "scheme=" + request.getScheme(),
            "serverName=" + request.getServerName(),
            "serverPort=" + request.getServerPort(),
            "requestURL=" + request.getRequestURL(),
            "queryString=" + request.getQueryString(),
            "secure=" + request.isSecure(),
            "remoteAddr=" + request.getRemoteAddr(),
            "localAddr=" + request.getLocalAddr(),
            "localPort=" + request.getLocalPort(),
            "authType=" + request.getAuthType(),
            "remoteUser=" + request.getRemoteUser(),
            "requestedSessionId=" + request.getRequestedSessionId(),
            "session=" + request.getSession(false));
    }

    /** A call to a request method that may throw. */
    interface Call {
        Object get();
    }

    /** @return what the call returned, or the simple name of the exception it threw */
    static String call(Call call) {
        try {
            return String.valueOf(call.get());
        } catch (RuntimeException e) {
            return e.getClass().getSimpleName();
        }
    }

    /** @return {@code text} with each char outside printable ASCII as {@code \\u} and its hex */
    static String visible(String text) {
        if (text == null) {
            return null;
        }
        StringBuilder visible = new StringBuilder();
        text.chars().forEach(c -> visible.append(c >= 0x20 && c < 0x7f ? Character.toString(c) : String.format("\\u%04x", c)));
        return visible.toString();
    }
}
