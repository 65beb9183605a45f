package io.wharf.bench;

import java.net.URI;

import io.wharf.client.HttpClient;
import io.wharf.client.Response;
import io.wharf.client.Result;

/** Wharf's {@code HttpClient} in the client macro run: a listener that drops the content and counts the end. */
final class WharfClientLoad extends ClientLoad {

    private final HttpClient client = new HttpClient();
    private final Response.Listener listener = new Response.Listener() {
        @Override
        public void onComplete(Result result) {
            done(result.isSucceeded() && result.response().getStatus() == 200);
        }
    };

    WharfClientLoad(int concurrency) throws Exception {
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
