package io.wharf.loadgen.internal;

import java.time.Duration;

import io.wharf.client.HttpClient;
import io.wharf.client.Request;
import io.wharf.client.RequestContent;
import io.wharf.http.HttpField;

/**
 * Makes the requests of a run: each {@linkplain PreparedResource prepared resource} at its resolved URI, with
 * its method, content and header fields, the run's timeout, tagged with its user so that each user has its
 * own connections (the client keeps a destination, and so a pool, per tag). Immutable; called
 * from the sending threads and the client's threads.
 */
final class Target {

    private final Settings settings;
    private final HttpClient client;

    Target(Settings settings, HttpClient client) {
        this.settings = settings;
        this.client = client;
    }

    /** Makes the client of a run, not started: the protocol, per-user connection and queue bounds, no redirects. */
    static HttpClient newClient(Settings settings) {
        HttpClient client = new HttpClient(settings.protocol().transport());
        client.setMaxConnectionsPerDestination(settings.connectionsPerUser());
        client.setMaxRequestsQueuedPerDestination(settings.maxQueuedPerUser());
        client.setFollowRedirects(false);
        client.setUserAgent("Wharf-loadgen");
        client.setTrustAllCertificatesInsecurely(settings.insecure());
        return client;
    }

    /** @return the request of {@code resource} for {@code user}, ready to send, bounded by {@code timeoutNanos} */
    Request newRequest(PreparedResource resource, int user, long timeoutNanos) {
        Request request = client.newRequest(resource.uri())
                .method(resource.method())
                .tag(user)
                .timeout(Duration.ofNanos(timeoutNanos))
                .followRedirects(false);
        for (HttpField field : resource.fields()) {
            request.header(field.getName(), field.getValue());
        }
        if (resource.content() != null) {
            request.content(RequestContent.of(resource.content(), resource.contentType()));
        }
        return request;
    }
}
