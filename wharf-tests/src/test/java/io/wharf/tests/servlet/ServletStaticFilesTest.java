package io.wharf.tests.servlet;

import java.util.Map;

import jakarta.servlet.ServletContainerInitializer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Static files and welcome files through each container's default servlet (Servlet 6.1
 * sections 10.5 and 10.10; RFC 9110 for the conditional and range requests), every peer
 * serving the one base resource directory the test writes: a text file, an HTML file, a
 * directory with {@code index.html}, one without, and a {@code WEB-INF/web.xml} (never served,
 * section 10.5). The application registers nothing. The validators each container makes are
 * its own (compared by kind, {@link Answer}); conditional requests quote them back and compare
 * the status only.
 */
class ServletStaticFilesTest {

    static final Map<String, String> FILES = Map.of(
        "hello.txt", "hello, static world\n",
        "page.html", "<!DOCTYPE html>\n<title>page</title>\n<p>a page\n",
        "dir/index.html", "<!DOCTYPE html>\n<title>dir</title>\n<p>the welcome file of dir\n",
        "plain/other.txt", "other\n",
        "WEB-INF/web.xml", "<web-app xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"6.1\"/>\n");

    private static final ServletContainerInitializer NOTHING = (classes, context) -> {
    };

    @RegisterExtension
    static final Differential containers = Differential.of("/ctx", NOTHING, Deployment.NONE.withFiles(FILES, "index.html"));

    /** Also compared: the validators (by kind) and how ranges are offered. */
    private static final Compared COMPARED = Compared.ALL.andHeaders("Last-Modified", "ETag", "Accept-Ranges", "Content-Range");

    @ParameterizedTest(name = "GET {0}")
    @ValueSource(strings = {
        "/ctx/hello.txt", "/ctx/page.html", "/ctx/missing.txt", "/ctx/WEB-INF/web.xml", "/ctx/WEB-INF/", "/ctx/web-inf/web.xml",
        "/ctx/dir", "/ctx/dir/", "/ctx/dir/index.html", "/ctx/plain", "/ctx/plain/", "/ctx/",
    })
    void get(String target) {
        containers.check(Differential.request("GET", target), COMPARED);
    }

    @Test
    void head() {
        containers.check(Differential.request("HEAD", "/ctx/hello.txt"), COMPARED);
    }

    @ParameterizedTest(name = "Range: {0}")
    @ValueSource(strings = {"bytes=0-4", "bytes=-6", "bytes=100-"})
    void range(String range) {
        containers.check(Differential.request("GET", "/ctx/hello.txt?range=" + range, "Range: " + range), COMPARED);
    }

    @Test
    void ifNoneMatchTheETagGiven() {
        containers.sequence(Compared.STATUS,
            Differential.request("GET", "/ctx/hello.txt?etag"),
            Differential.request("GET", "/ctx/hello.txt?if-none-match", "If-None-Match: {previous:ETag}"));
    }

    @Test
    void ifModifiedSinceTheLastModifiedGiven() {
        containers.sequence(Compared.STATUS,
            Differential.request("GET", "/ctx/hello.txt?modified"),
            Differential.request("GET", "/ctx/hello.txt?if-modified-since", "If-Modified-Since: {previous:Last-Modified}"),
            Differential.request("GET", "/ctx/hello.txt?if-unmodified-since", "If-Unmodified-Since: Thu, 01 Jan 1970 00:00:00 GMT"));
    }
}
