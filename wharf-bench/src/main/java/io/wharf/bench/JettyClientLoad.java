package io.wharf.bench;

import java.net.URI;

import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Response;

/** Jetty 12.1's {@code HttpClient} in the client macro run: a complete listener (content is dropped). */
final class JettyClientLoad extends ClientLoad {

    private final HttpClient client = new HttpClient();
    private final Response.CompleteListener listener = result ->
        done(result.isSucceeded() && result.getResponse().getStatus() == 200);

    JettyClientLoad(int concurrency) throws Exception {
        client.setMaxConnectionsPerDestination(concurrency);
        client.start();
    }

    @Override
    protected void send(URI uri) {
        client.newRequest(uri).send(listener);
    }

    @Override
    public void close() throws Exception {
        client.stop();
    }
}
