package io.wharf.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Base64;

import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.http1.HttpConnectionFactory;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The servlet example answers what docs/servlet.md says, to the JDK's HTTP client over loopback. */
@Timeout(30)
class ServletExampleTest {

    @Test
    void answersWhatTheDocsShow() throws Exception {
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory());
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        server.setHandler(ServletExample.context());
        server.start();
        try {
            String base = "http://127.0.0.1:" + connector.getLocalPort() + "/app";
            HttpClient client = HttpClient.newBuilder().cookieHandler(new java.net.CookieManager()).version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
            assertEquals("Hello visitor, visit 1 over HTTP/1.1\n", get(client, base + "/hello", null).body());
            assertEquals("Hello visitor, visit 2 over HTTP/1.1\n", get(client, base + "/hello", null).body());
            assertEquals("answered later\n", get(client, base + "/async", null).body());
            HttpResponse<String> refused = get(client, base + "/admin", null);
            assertEquals(401, refused.statusCode());
            String basic = "Basic " + Base64.getEncoder().encodeToString("admin:admin".getBytes());
            HttpResponse<String> admitted = get(client, base + "/admin", basic);
            assertEquals(200, admitted.statusCode());
            assertTrue(admitted.body().startsWith("Hello admin, visit 3"), admitted.body());
            assertTrue(admitted.headers().firstValue("X-Started").isPresent());
        } finally {
            server.stop();
        }
    }

    private static HttpResponse<String> get(HttpClient client, String uri, String authorization) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(uri)).timeout(Duration.ofSeconds(10));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
