package io.wharf.examples;

import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.wharf.client.ContentResponse;
import io.wharf.client.HttpClient;
import io.wharf.client.InputStreamResponseListener;
import io.wharf.client.RequestContent;
import io.wharf.http.form.FormFields;
import io.wharf.server.Handler;
import io.wharf.server.Request;
import io.wharf.server.Response;

/**
 * The HTTP client in a few calls: a one-line GET, a form POST, an asynchronous send and a
 * streamed download, against a small Wharf server started on a free loopback port.
 */
public final class ClientExample {

    private ClientExample() {
    }

    public static void main(String[] args) throws Exception {
        run(System.out);
    }

    /** Runs the example, printing what it gets to {@code out}. */
    public static void run(PrintStream out) throws Exception {
        LoopbackServer server = new LoopbackServer(Handler.of((request, response, callback) -> {
            String body = Request.getContentAsString(request, StandardCharsets.UTF_8, 64 * 1024);
            response.getHeaders().put("Content-Type", "text/plain;charset=utf-8");
            if (request.getPathInContext().equals("/big")) {
                Response.write(response, true, "x".repeat(1_000_000), callback);
            } else {
                Response.write(response, true, request.getMethod() + " " + request.getHttpURI().getPathQuery() + " " + body, callback);
            }
            return true;
        }));
        String base = server.base();

        HttpClient client = new HttpClient();
        client.setConnectTimeout(Duration.ofSeconds(2));
        client.start();
        try {
            // 1. One line: GET and wait for the whole response.
            ContentResponse hello = client.GET(base + "/hello?name=wharf");
            out.println(hello.getStatus() + " " + hello.getContentAsString());

            // 2. A form POST with a total timeout.
            FormFields form = new FormFields();
            form.add("user", "ann lee");
            ContentResponse posted = client.POST(base + "/users")
                    .content(RequestContent.form(form))
                    .timeout(Duration.ofSeconds(5))
                    .send();
            out.println(posted.getStatus() + " " + posted.getContentAsString());

            // 3. Asynchronous: a CompletableFuture.
            CompletableFuture<ContentResponse> later = client.newRequest(base + "/async").sendAsync();
            out.println(later.get(5, TimeUnit.SECONDS).getContentAsString());

            // 4. Streamed: read a large response as an InputStream, one chunk in memory at a time.
            InputStreamResponseListener listener = new InputStreamResponseListener();
            client.newRequest(base + "/big").send(listener);
            out.println("big: " + listener.get(5, TimeUnit.SECONDS).getStatus());
            long count;
            try (InputStream in = listener.getInputStream()) {
                count = in.transferTo(java.io.OutputStream.nullOutputStream());
            }
            out.println("big: " + count + " bytes");
        } finally {
            client.stop();
            server.close();
        }
    }
}
