package io.wharf.tests.servlet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The request (Servlet 6.1 chapter 3) compared between the containers: parameters from the
 * query and from a form, the request's character encoding, header accessors, cookies,
 * locales, and what the request says of its connection.
 */
class ServletRequestTest {

    @RegisterExtension
    static final Differential containers = Differential.of("/ctx", new RequestApplication());

    @ParameterizedTest(name = "GET /ctx/r/parameters{0}")
    @ValueSource(strings = {
        "", "?", "?a=1", "?a=1&b=2&a=3", "?b=2&a=1", "?a=&b", "?a", "?=x&a=1", "?a=1&&a=2", "?a=x+y%20z", "?a=%E2%82%AC",
        "?a=%E9", "?a=%zz", "?a=%", "?a=1;b=2", "?a=%26&b=%3D", "?A=1&a=2", "?a=1#fragment",
    })
    void queryParameters(String query) {
        containers.get("/ctx/r/parameters" + query);
    }

    /** Form parameters come after the query's (section 3.1.1), for POST of a urlencoded form only. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "POST /ctx/r/parameters?a=query",
        "POST /ctx/r/parameters?b=urlencoded-charset",
        "POST /ctx/r/parameters?c=upper-case-type",
        "PUT /ctx/r/parameters?a=query",
        "POST /ctx/r/parameters?d=text-plain",
        "POST /ctx/r/parameters?e=no-type",
    })
    void formParameters(String line) {
        String type = switch (line.substring(line.indexOf('?') + 1)) {
            case "b=urlencoded-charset" -> "application/x-www-form-urlencoded; charset=UTF-8";
            case "c=upper-case-type" -> "Application/X-WWW-Form-URLEncoded";
            case "d=text-plain" -> "text/plain";
            case "e=no-type" -> null;
            default -> "application/x-www-form-urlencoded";
        };
        String body = "a=form1&z=last&a=form2";
        containers.check(line + " HTTP/1.1\nHost: {host}\n" + (type == null ? "" : "Content-Type: " + type + "\n")
            + "Content-Length: " + body.length() + "\nConnection: close\n\n" + body);
    }

    /** The form's character encoding: none, from the Content-Type, set by the servlet before and after reading. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "POST /ctx/r/encoding?none",
        "POST /ctx/r/encoding?utf8-in-type",
        "POST /ctx/r/encoding?latin1-in-type",
        "POST /ctx/r/encoding?set-utf8",
        "POST /ctx/r/encoding?set-unknown",
        "POST /ctx/r/encoding?set-late",
        "POST /ctx/r/encoding?quoted-charset",
    })
    void characterEncoding(String line) {
        String type = "application/x-www-form-urlencoded";
        String extra = "";
        switch (line.substring(line.indexOf('?') + 1)) {
            case "utf8-in-type" -> type += ";charset=UTF-8";
            case "latin1-in-type" -> type += "; charset=ISO-8859-1";
            case "quoted-charset" -> type += "; charset=\"utf-8\"";
            case "set-utf8" -> extra = "X-Set-Encoding: UTF-8\n";
            case "set-unknown" -> extra = "X-Set-Encoding: no-such-charset\n";
            case "set-late" -> extra = "X-Set-Encoding-Late: UTF-8\n";
            default -> { }
        }
        String body = "name=%C3%A9t%C3%A9";
        containers.check(line + " HTTP/1.1\nHost: {host}\nContent-Type: " + type + "\n" + extra
            + "Content-Length: " + body.length() + "\nConnection: close\n\n" + body);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "GET /ctx/r/encoding?get-without-body",
        "GET /ctx/r/encoding?name=%C3%A9",
    })
    void encodingOfAGet(String line) {
        containers.check(line + " HTTP/1.1\nHost: {host}\nConnection: close\n\n");
    }

    @Test
    void headers() {
        containers.check("""
            GET /ctx/r/headers HTTP/1.1
            Host: {host}
            X-A: one
            x-a: two, three
            X-A:   four
            X-Empty:
            X-Int: 42
            X-Not-Int: forty-two
            If-Modified-Since: Sun, 06 Nov 1994 08:49:37 GMT
            X-Rfc850: Sunday, 06-Nov-94 08:49:37 GMT
            X-Asctime: Sun Nov  6 08:49:37 1994
            X-Not-Date: yesterday
            Connection: close

            """);
    }

    @ParameterizedTest(name = "GET /ctx/r/cookies?{0}")
    @ValueSource(strings = {
        "none", "one", "two", "two-fields", "quoted", "spaces", "empty-value", "no-value", "attributes-rfc2109",
        "comma", "bad-name", "utf8", "duplicate",
    })
    void cookies(String name) {
        String cookie = switch (name) {
            case "none" -> null;
            case "one" -> "a=1";
            case "two" -> "a=1; b=2";
            case "two-fields" -> "a=1\nCookie: b=2";
            case "quoted" -> "a=\"quoted value\"";
            case "spaces" -> "a = 1 ;  b=2";
            case "empty-value" -> "a=; b=2";
            case "no-value" -> "a; b=2";
            case "attributes-rfc2109" -> "$Version=1; a=1; $Path=/ctx; $Domain=localhost";
            case "comma" -> "a=1, b=2";
            case "bad-name" -> "a b=1; c=2";
            case "utf8" -> "a=\u00e9t\u00e9";
            case "duplicate" -> "a=1; a=2";
            default -> throw new IllegalArgumentException(name);
        };
        containers.get("/ctx/r/cookies?" + name, cookie == null ? new String[0] : new String[] {"Cookie: " + cookie});
    }

    @ParameterizedTest(name = "GET /ctx/r/locales?{0}")
    @ValueSource(strings = {"none", "fr", "weights", "star", "bad", "script", "empty", "underscore"})
    void locales(String name) {
        String languages = switch (name) {
            case "none" -> null;
            case "fr" -> "fr-CA";
            case "weights" -> "da, en-gb;q=0.8, en;q=0.7, de;q=0.9";
            case "star" -> "*";
            case "bad" -> "12-34;q=abc";
            case "script" -> "zh-Hant-TW";
            case "empty" -> "";
            case "underscore" -> "en_US";
            default -> throw new IllegalArgumentException(name);
        };
        containers.get("/ctx/r/locales?" + name, languages == null ? new String[0] : new String[] {"Accept-Language: " + languages});
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "GET /ctx/r/basics?x=1",
        "POST /ctx/r/basics",
        "DELETE /ctx/r/basics",
        "PATCH /ctx/r/basics",
        "CUSTOM /ctx/r/basics",
    })
    void basics(String line) {
        containers.check(line + " HTTP/1.1\nHost: {host}\nContent-Length: 0\nConnection: close\n\n");
    }

    @Test
    void basicsOverHttp10() {
        containers.check("GET /ctx/r/basics?http10 HTTP/1.0\n\n");
    }

    @Test
    void basicsWithAnotherHost() {
        containers.check("GET /ctx/r/basics?host=example HTTP/1.1\nHost: Example.COM:8080\nConnection: close\n\n");
    }

    @Test
    void basicsWithAnAbsoluteTarget() {
        containers.check("GET http://other.example/ctx/r/basics?absolute HTTP/1.1\nHost: {host}\nConnection: close\n\n");
    }
}
