package io.wharf.client.reactive;

import java.util.Objects;
import java.util.concurrent.Flow;

import io.wharf.client.Request;

/**
 * A request sent the reactive way ({@link java.util.concurrent.Flow}): {@link #response()} is a
 * publisher of its one {@link ReactiveResponse}, whose {@link ReactiveResponse#content()} is a
 * publisher of its content, with back-pressure from the subscriber to the socket: nothing more
 * is read from the connection until the content subscriber asks for more.
 *
 * <pre>{@code
 * ReactiveRequest.of(client.newRequest(uri)).response().subscribe(responseSubscriber);
 * // responseSubscriber.onNext(response): check response.getStatus(), then
 * // response.content().subscribe(contentSubscriber), which gets ByteBuffers it owns
 * }</pre>
 *
 * <p>The request is sent when the response subscriber first requests; the response publisher
 * emits the response once its head arrived, then completes, or fails (connect failure, timeout,
 * bad response head). Failures after the head go to the content subscriber. Cancelling the
 * response subscription before the head aborts the request; cancelling the content subscription
 * aborts the rest of the exchange. A response whose content is never subscribed holds its
 * connection until a timeout: subscribe, or cancel.
 *
 * <p>Each publisher takes one subscriber. Signals come on the client's threads (usually the
 * selector thread that read the bytes) or on the thread that requested: subscribers must not
 * block. Both publishers pass the Reactive Streams TCK (Flow variant).
 */
public final class ReactiveRequest {

    private final Request request;
    private final ReactiveListener listener;

    private ReactiveRequest(Request request) {
        this.request = Objects.requireNonNull(request, "request");
        this.listener = new ReactiveListener(request);
    }

    /** @return {@code request} to be sent when its response is subscribed to and requested */
    public static ReactiveRequest of(Request request) {
        return new ReactiveRequest(request);
    }

    /** @return the request, to read what it is (do not send it yourself) */
    public Request getRequest() {
        return request;
    }

    /** @return the publisher of the one response; subscribing and requesting sends the request */
    public Flow.Publisher<ReactiveResponse> response() {
        return listener.responses();
    }
}
