package io.wharf.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.wharf.http.BadMessageException;
import io.wharf.http.ComplianceViolation;
import io.wharf.http.HttpCompliance;
import io.wharf.http.HttpField;
import io.wharf.http.HttpParser;
import io.wharf.http.HttpParserListener;
import io.wharf.http.HttpVersion;
import io.wharf.server.Handler;
import io.wharf.server.Response;
import io.wharf.testing.LeakTracking;
import io.wharf.util.InvocationType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * One TCP connection carrying 1,000,000 pipelined requests: every one is answered, in order.
 * The handler answers each with its request's number; a writer thread sends the requests
 * while this thread parses the responses with Wharf's own HTTP/1 parser.
 */
class PipelineMillionTest {

    private static final int REQUESTS = 1_000_000;

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @Test
    void aMillionPipelinedRequestsAreAllAnsweredInOrder() throws Exception {
        Handler numbered = Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            String query = request.getHttpURI().getQuery();
            Response.write(response, true, query, callback);
            return true;
        });
        try (TestServer server = new TestServer(leaks.pool(), numbered, null);
             SocketChannel channel = SocketChannel.open(new InetSocketAddress("127.0.0.1", server.connector.getLocalPort()))) {
            CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> sendAll(channel));
            ResponseCounter counter = new ResponseCounter();
            HttpParser parser = new HttpParser(counter, HttpParser.Limits.DEFAULT, HttpCompliance.RFC9112, ComplianceViolation.Listener.NONE);
            ByteBuffer buffer = ByteBuffer.allocateDirect(256 * 1024);
            buffer.flip();
            while (counter.answered < REQUESTS) {
                buffer.compact();
                if (channel.read(buffer) < 0) {
                    break;
                }
                buffer.flip();
                while (buffer.hasRemaining()) {
                    if (parser.parseNext(buffer) && parser.isComplete()) {
                        parser.reset();
                    }
                }
            }
            sent.get(60, TimeUnit.SECONDS);
            assertEquals(REQUESTS, counter.answered);
        }
    }

    private static void sendAll(SocketChannel channel) {
        ByteBuffer batch = ByteBuffer.allocateDirect(64 * 1024);
        try {
            for (int i = 0; i < REQUESTS; i++) {
                byte[] request = ("GET /n?" + i + " HTTP/1.1\r\nHost: localhost\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
                if (batch.remaining() < request.length) {
                    write(channel, batch);
                }
                batch.put(request);
            }
            write(channel, batch);
        } catch (IOException x) {
            throw new java.io.UncheckedIOException(x);
        }
    }

    private static void write(SocketChannel channel, ByteBuffer batch) throws IOException {
        batch.flip();
        while (batch.hasRemaining()) {
            channel.write(batch);
        }
        batch.clear();
    }

    /** Checks each response carries the next number. */
    private static final class ResponseCounter implements HttpParserListener.Response {
        private int answered;
        private final StringBuilder body = new StringBuilder(8);

        @Override
        public void startResponse(HttpVersion version, int status, String reason) {
            if (status != 200) {
                throw new AssertionError("response " + answered + " has status " + status);
            }
            body.setLength(0);
        }

        @Override
        public void parsedHeader(HttpField field) {
        }

        @Override
        public boolean headerComplete() {
            return false;
        }

        @Override
        public boolean content(ByteBuffer content) {
            while (content.hasRemaining()) {
                body.append((char) content.get());
            }
            return false;
        }

        @Override
        public boolean messageComplete() {
            if (!body.toString().equals(Integer.toString(answered))) {
                throw new AssertionError("response " + answered + " answered request " + body);
            }
            answered++;
            return true;
        }

        @Override
        public void badMessage(BadMessageException failure) {
            throw new AssertionError("bad response after " + answered + ": " + failure.getReason());
        }

        @Override
        public void earlyEOF() {
            throw new AssertionError("the server closed after " + answered + " responses");
        }
    }
}
