package io.wharf.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** The JDK's {@code java.net.http.HttpClient} in the client macro run, HTTP/1.1, content discarded. */
final class JdkClientLoad extends ClientLoad {

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Override
    protected void send(URI uri) {
        client.sendAsync(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.discarding())
            .whenComplete((response, failure) -> done(failure == null && response.statusCode() == 200));
    }

    @Override
    public void close() {
        client.close();
    }
}
