package io.wharf.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The HTTP/2 example answers the JDK's own client over h2c (it upgrades from HTTP/1.1) and over HTTP/1.1. */
class Http2ServerTest {

    @TempDir
    Path directory;

    @Test
    void theJdkClientUpgradesToH2c() throws Exception {
        Http2Server.Running running = Http2Server.start(0, 0, directory.resolve("tls"));
        try (HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build()) {
            URI uri = URI.create("http://127.0.0.1:" + running.port() + "/");
            HttpResponse<String> first = client.send(HttpRequest.newBuilder(uri).version(HttpClient.Version.HTTP_2).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(HttpClient.Version.HTTP_2, first.version());
            assertEquals("Hello over HTTP/2.0\n", first.body());
            HttpResponse<String> again = client.send(HttpRequest.newBuilder(uri).version(HttpClient.Version.HTTP_2).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals("Hello over HTTP/2.0\n", again.body());
            HttpResponse<String> http11 = client.send(HttpRequest.newBuilder(uri).version(HttpClient.Version.HTTP_1_1).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals("Hello over HTTP/1.1\n", http11.body());
        } finally {
            running.server().stop();
        }
    }
}
