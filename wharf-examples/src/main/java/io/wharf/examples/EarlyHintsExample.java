package io.wharf.examples;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

import io.wharf.client.ContentResponse;
import io.wharf.client.HttpClient;
import io.wharf.http.HttpField;
import io.wharf.http.HttpHeader;
import io.wharf.server.Handler;
import io.wharf.server.Response;
import io.wharf.server.handler.push.PushHandler;
import io.wharf.server.handler.push.ReferrerPushStrategy;
import io.wharf.util.InvocationType;

/**
 * 103 Early Hints learned from a browser's requests (docs/push.md): a page and its
 * stylesheet and script behind an {@link PushHandler}; Wharf's client plays the browser
 * (the page, then its resources with the page as {@code Referer}), and on the next visit the
 * page's response is preceded by a 103 that names them. Run it with
 * {@code java -cp ... io.wharf.examples.EarlyHintsExample}.
 */
public final class EarlyHintsExample {

    private EarlyHintsExample() {
    }

    public static void main(String[] args) throws Exception {
        run(System.out);
    }

    static void run(PrintStream out) throws Exception {
        Handler site = Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            String path = request.getPathInContext();
            String type = path.endsWith(".css") ? "text/css" : path.endsWith(".js") ? "text/javascript" : "text/html";
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
            Response.write(response, true, "content of " + path, callback);
            return true;
        });
        try (LoopbackServer server = new LoopbackServer(new PushHandler(new ReferrerPushStrategy(), site))) {
            HttpClient client = new HttpClient();
            client.start();
            try {
                String page = server.base() + "/index.html";
                // The first visit: the browser asks for the page, then for what the page uses.
                client.GET(page);
                client.newRequest(server.base() + "/site.css").header("Referer", page).send();
                client.newRequest(server.base() + "/app.js").header("Referer", page).send();
                // The next visit: the hints come before the page.
                List<String> hints = new ArrayList<>();
                ContentResponse again = client.newRequest(page).onResponse(new io.wharf.client.Response.Listener() {
                    @Override
                    public void onInformational(io.wharf.client.Response interim) {
                        for (HttpField link : interim.getHeaders().getFields(HttpHeader.LINK)) {
                            hints.add(interim.getStatus() + " " + link.getValue());
                        }
                    }
                }).send();
                hints.forEach(out::println);
                out.println(again.getStatus() + " " + again.getContentAsString());
            } finally {
                client.stop();
            }
        }
    }
}
