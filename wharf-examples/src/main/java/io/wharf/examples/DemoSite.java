package io.wharf.examples;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import io.wharf.server.Handler;
import io.wharf.server.handler.resource.ResourceHandler;

/**
 * The demo's static site: a directory made at start (under the system temp directory) with
 * the home page, a stylesheet and a 16 MiB file to try ranges on, served by a
 * {@link ResourceHandler}.
 */
final class DemoSite {

    private static final int LARGE_FILE_BYTES = 16 * 1024 * 1024;

    private DemoSite() {
    }

    /** @return the site's directory, written afresh */
    static Path prepare() throws IOException {
        Path site = Files.createTempDirectory("wharf-demo-");
        site.toFile().deleteOnExit();
        write(site.resolve("index.html"), HOME_PAGE);
        write(site.resolve("style.css"), STYLE);
        writePushPage(Files.createDirectories(site.resolve("push")));
        Path large = site.resolve("large.bin");
        try (OutputStream out = Files.newOutputStream(large)) {
            byte[] block = new byte[64 * 1024];
            Random random = new Random(8080);
            for (int written = 0; written < LARGE_FILE_BYTES; written += block.length) {
                random.nextBytes(block);
                out.write(block);
            }
        }
        large.toFile().deleteOnExit();
        return site;
    }

    /**
     * @return the handler serving {@code site}; its files may be cached for a minute, which is
     *     also what lets a browser use the resources it preloaded from 103 Early Hints once the
     *     page arrives (an uncacheable preload is fetched again)
     */
    static Handler staticFiles(Path site) {
        ResourceHandler files = new ResourceHandler(site);
        files.setCacheControl("max-age=60");
        return files;
    }

    /**
     * The push demonstration: a page that needs ten sub-resources — a stylesheet that itself
     * needs an image, three scripts and five images.
     */
    private static void writePushPage(Path push) throws IOException {
        push.toFile().deleteOnExit();
        StringBuilder page = new StringBuilder("""
                <!DOCTYPE html>
                <html lang="en">
                <head><meta charset="utf-8"><title>Wharf push demo</title><link rel="stylesheet" href="/push/style.css">
                """);
        for (int i = 1; i <= 3; i++) {
            page.append("<script src=\"/push/app").append(i).append(".js\"></script>\n");
            write(push.resolve("app" + i + ".js"), "window.loaded = (window.loaded || 0) + 1;\n");
        }
        page.append("</head>\n<body>\n<h1>Wharf push demo</h1>\n<p>Ten sub-resources. Reload after the first visit: the server learned them.</p>\n");
        for (int i = 1; i <= 5; i++) {
            page.append("<img src=\"/push/img").append(i).append(".svg\" width=\"64\" height=\"64\" alt=\"tile ").append(i).append("\">\n");
            write(push.resolve("img" + i + ".svg"), tile(i * 60));
        }
        page.append("</body>\n</html>\n");
        write(push.resolve("index.html"), page.toString());
        write(push.resolve("style.css"), "body { background: url(/push/background.svg); font-family: system-ui, sans-serif; }\n");
        write(push.resolve("background.svg"), tile(200));
    }

    private static String tile(int hue) {
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"64\" height=\"64\"><rect width=\"64\" height=\"64\" fill=\"hsl("
                + hue + ",60%,70%)\"/></svg>\n";
    }

    private static void write(Path path, String text) throws IOException {
        Files.writeString(path, text, StandardCharsets.UTF_8);
        path.toFile().deleteOnExit();
    }

    private static final String STYLE = """
            body { font-family: system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; line-height: 1.5; }
            code { background: #f2f2f2; padding: 0 .3em; }
            """;

    private static final String HOME_PAGE = """
            <!DOCTYPE html>
            <html lang="en">
            <head><meta charset="utf-8"><title>Wharf demo</title><link rel="stylesheet" href="/style.css"></head>
            <body>
            <h1>Wharf demo</h1>
            <p>An embedded Wharf server answering over HTTP/1.1. What it shows:</p>
            <ul>
            <li><a href="/hello">/hello</a> &mdash; plain text, answered on the thread that read the request</li>
            <li><a href="/json">/json</a> &mdash; a small JSON document</li>
            <li><a href="/echo?x=1">/echo</a> &mdash; your request shown back: try <code>curl -d 'hello' http://localhost:8080/echo</code></li>
            <li><a href="/style.css">/style.css</a> &mdash; a static file with ETag and Last-Modified: try <code>curl -I</code>, then a conditional request</li>
            <li><a href="/chat">/chat</a> &mdash; a WebSocket chat room: open it in two tabs</li>
            <li><a href="/servlet/">/servlet/</a> &mdash; servlets: a session, a filter, an asynchronous answer, FORM login</li>
            <li><a href="/push/index.html">/push/</a> &mdash; a page with ten sub-resources: after a browser's first visit the server
            knows them, and announces them with 103 Early Hints (or pushes them to HTTP/2 clients that accept pushes).
            The server learns them from the <code>Referer</code> of their requests, which browsers send and nghttp only when told:
            try <code>nghttp -nva -H 'referer: http://localhost:8080/push/index.html' http://localhost:8080/push/index.html</code> twice
            (<code>-a</code> fetches the page's stylesheet, scripts and images; the second run receives them as
            <code>PUSH_PROMISE</code> frames)</li>
            <li><a href="/large.bin">/large.bin</a> &mdash; 16 MiB of random bytes: try <code>curl -r 0-99 http://localhost:8080/large.bin | wc -c</code></li>
            </ul>
            <p>Stop the server with Ctrl-C: it finishes the requests in flight, then exits.</p>
            </body>
            </html>
            """;
}
