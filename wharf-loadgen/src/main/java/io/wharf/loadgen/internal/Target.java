package io.wharf.loadgen.internal;

import java.net.URI;
import java.nio.ByteBuffer;

import io.wharf.client.HttpClient;
import io.wharf.client.Request;
import io.wharf.client.RequestContent;
import io.wharf.http.HttpField;
import io.wharf.loadgen.Resource;

/**
 * Makes the requests of a run: each resource resolved against the target, with the run's
 * header fields and timeout, and its own method and content when it has them (else the run's), tagged with its user so that each user has its
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

    /** @return the request of {@code resource} for {@code user}, ready to send */
    Request newRequest(Resource resource, int user) {
        URI uri = settings.target().resolve(resource.path());
        Request request = client.newRequest(uri)
                .method(resource.request().map(Resource.Request::method).orElse(settings.method()))
                .tag(user)
                .timeout(settings.requestTimeout())
                .followRedirects(false);
        for (HttpField field : settings.headers()) {
            request.header(field.getName(), field.getValue());
        }
        if (resource.request().isPresent()) {
            Resource.Request own = resource.request().get();
            byte[] content = own.content();
            if (content.length > 0) {
                request.content(RequestContent.of(ByteBuffer.wrap(content), own.contentType()));
            }
        } else if (settings.body() != null) {
            request.content(RequestContent.of(ByteBuffer.wrap(settings.body()), settings.contentType()));
        }
        return request;
    }
}
