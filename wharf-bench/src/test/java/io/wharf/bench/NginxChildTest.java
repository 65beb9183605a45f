package io.wharf.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The request counter the loadgen-cost run reads from nginx: it counts every request, whoever sent it. */
@Timeout(60)
class NginxChildTest {

    @Test
    void countsTheRequestsBetweenTwoReadings() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/sbin/nginx")), "nginx is not installed (scripts/install-peers nginx)");
        try (NginxChild nginx = NginxChild.start(); HttpClient client = HttpClient.newHttpClient()) {
            long before = nginx.requestsServed();
            for (int i = 0; i < 5; i++) {
                HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + nginx.port() + "/plaintext"))
                    .build(), HttpResponse.BodyHandlers.ofString());
                assertEquals("Hello, World!", response.body());
            }
            // The five requests, and the second reading itself.
            assertEquals(before + 6, nginx.requestsServed());
        }
    }
}
