package io.wharf.client;

import java.util.concurrent.Flow;

import io.wharf.client.reactive.ReactiveRequest;
import io.wharf.client.reactive.ReactiveResponse;
import io.wharf.server.Handler;
import io.wharf.server.Response;
import io.wharf.util.buffer.BucketedByteBufferPool;

import org.reactivestreams.tck.TestEnvironment;
import org.reactivestreams.tck.flow.FlowPublisherVerification;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;

/**
 * The Reactive Streams TCK (Flow variant, run by the TestNG engine) against the reactive
 * client's response publisher, over real requests to Wharf's server on loopback: a publisher of
 * at most one element, sent when first requested. No failed publisher is given: a response
 * publisher fails only once requested (it sends then), which the TCK's failed-publisher rules
 * do not expect, so those optional rules are skipped. The content publisher is the same
 * {@code PulledPublisher}, which {@code PulledPublisherTckTest} checks with any number of items.
 */
public class ReactiveRequestTckTest extends FlowPublisherVerification<ReactiveResponse> {

    private TestServer server;
    private HttpClient client;

    public ReactiveRequestTckTest() {
        super(new TestEnvironment(2000));
    }

    @BeforeClass
    public void start() throws Exception {
        server = new TestServer(new BucketedByteBufferPool(), Handler.of((request, response, callback) -> {
            Response.write(response, true, "hello", callback);
            return true;
        }));
        client = new HttpClient();
        client.start();
    }

    @AfterClass
    public void stop() throws Exception {
        client.stop();
        server.close();
    }

    @Override
    public long maxElementsFromPublisher() {
        return 1;
    }

    @Override
    public Flow.Publisher<ReactiveResponse> createFlowPublisher(long elements) {
        return ReactiveRequest.of(client.newRequest(server.uri("/tck"))).response();
    }

    @Override
    public Flow.Publisher<ReactiveResponse> createFailedFlowPublisher() {
        return null;
    }
}
