package io.wharf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.wharf.http.HttpHeader;
import io.wharf.http.form.MultiPartForm;
import io.wharf.http.form.MultiPartFormParser;
import io.wharf.http.form.MultiPartLimits;
import io.wharf.http.form.Part;
import io.wharf.server.Handler;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Uploads of multipart forms (parsed back by wharf-http's multipart parser on Wharf's server)
 * and of content from a {@link Flow.Publisher}, with its back-pressure.
 */
class UploadContentTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @RegisterExtension
    final Loopback loopback = new Loopback(leaks);

    @TempDir
    Path directory;

    /** Parses the multipart form and answers each part as {@code name|file name|content type|length|sum of bytes}. */
    private Handler multipartEcho() {
        return Handler.of((request, response, callback) -> {
            String contentType = request.getHeaders().get(HttpHeader.CONTENT_TYPE);
            MultiPartFormParser parser = new MultiPartFormParser(MultiPartFormParser.boundaryOf(contentType),
                    MultiPartLimits.DEFAULT.withMaxPartBytes(1 << 26).withMaxTotalBytes(1 << 27), directory);
            byte[] buffer = new byte[8192];
            try (InputStream in = Request.asInputStream(request)) {
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    parser.parse(ByteBuffer.wrap(buffer, 0, read), false);
                }
            }
            parser.parse(ByteBuffer.allocate(0), true);
            StringBuilder answer = new StringBuilder("length=").append(request.getHeaders().get(HttpHeader.CONTENT_LENGTH)).append('\n');
            try (MultiPartForm form = parser.getForm()) {
                for (Part part : form) {
                    long sum = 0;
                    try (InputStream in = part.newInputStream()) {
                        int b;
                        while ((b = in.read()) >= 0) {
                            sum += b;
                        }
                    }
                    answer.append(part.getName()).append('|').append(part.getFileName()).append('|').append(part.getContentType())
                            .append('|').append(part.getLength()).append('|').append(sum).append('\n');
                }
            }
            Response.write(response, true, answer.toString(), callback);
            return true;
        });
    }

    private static long sumOf(byte[] bytes) {
        long sum = 0;
        for (byte b : bytes) {
            sum += b & 0xFF;
        }
        return sum;
    }

    @Test
    void aMultipartFormWithFieldsAndAStreamedFileArrivesWhole() throws Exception {
        byte[] file = new byte[3 * 1024 * 1024 + 17];
        new java.util.Random(7).nextBytes(file);
        Path upload = Files.write(directory.resolve("data.bin"), file);
        TestServer server = loopback.server(multipartEcho());
        MultiPartContent form = new MultiPartContent()
                .field("title", "Quarterly \"report\" – Zürich")
                .file("upload", "data.bin", "application/octet-stream", upload)
                .part("note", "note.txt", RequestContent.of("a small note", "text/plain"));
        ContentResponse response = loopback.client().POST(server.uri("/upload")).content(form).send();
        assertEquals(200, response.getStatus(), response.getContentAsString());
        String title = "Quarterly \"report\" – Zürich";
        assertEquals("length=" + form.getLength() + "\n"
                + "title|null|text/plain;charset=utf-8|" + title.getBytes(StandardCharsets.UTF_8).length + "|" + sumOf(title.getBytes(StandardCharsets.UTF_8)) + "\n"
                + "upload|data.bin|application/octet-stream|" + file.length + "|" + sumOf(file) + "\n"
                + "note|note.txt|text/plain|12|" + sumOf("a small note".getBytes(StandardCharsets.US_ASCII)) + "\n",
                response.getContentAsString());
    }

    @Test
    void aPartOfUnknownLengthMakesTheFormChunked() throws Exception {
        TestServer server = loopback.server(multipartEcho());
        byte[] streamed = "streamed bytes".getBytes(StandardCharsets.US_ASCII);
        MultiPartContent form = new MultiPartContent()
                .field("a", "1")
                .part("stream", "s.txt", RequestContent.of(new ByteArrayInputStream(streamed)));
        assertEquals(-1, form.getLength());
        ContentResponse response = loopback.client().POST(server.uri("/upload")).content(form).send();
        assertEquals("length=null\na|null|text/plain;charset=utf-8|1|49\nstream|s.txt|application/octet-stream|14|" + sumOf(streamed) + "\n",
                response.getContentAsString());
    }

    @Test
    void namesThatCouldSplitTheHeadAreRefused() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> new MultiPartContent().field("evil\r\nContent-Type: x", "v"));
        assertTrue(refused.getMessage().contains("must not hold CR, LF or NUL"), refused.getMessage());
    }

    /** Emits {@code items} buffers of 1 KiB, each only when requested, counting how many were asked for at most at once. */
    private static final class CountingPublisher implements Flow.Publisher<ByteBuffer> {
        final AtomicInteger maxOutstanding = new AtomicInteger();
        final AtomicLong requested = new AtomicLong();
        private final int items;
        private final RuntimeException failAfter;

        CountingPublisher(int items, RuntimeException failAfter) {
            this.items = items;
            this.failAfter = failAfter;
        }

        @Override
        public void subscribe(Flow.Subscriber<? super ByteBuffer> subscriber) {
            AtomicInteger sent = new AtomicInteger();
            subscriber.onSubscribe(new Flow.Subscription() {
                @Override
                public void request(long n) {
                    long outstanding = requested.addAndGet(n) - sent.get();
                    maxOutstanding.accumulateAndGet((int) outstanding, Math::max);
                    // Emitted from another thread, as a real publisher would.
                    Thread.ofVirtual().start(() -> {
                        for (long i = 0; i < n; i++) {
                            if (sent.get() == items) {
                                if (failAfter != null) {
                                    subscriber.onError(failAfter);
                                } else {
                                    subscriber.onComplete();
                                }
                                return;
                            }
                            sent.incrementAndGet();
                            subscriber.onNext(ByteBuffer.wrap(new byte[1024]));
                        }
                    });
                }

                @Override
                public void cancel() {
                }
            });
        }
    }

    @Test
    void aPublisherIsAskedForOneBufferAtATime() throws Exception {
        AtomicLong received = new AtomicLong();
        TestServer server = loopback.server(Handler.of((request, response, callback) -> {
            try (InputStream in = Request.asInputStream(request)) {
                received.set(in.transferTo(java.io.OutputStream.nullOutputStream()));
            }
            Response.write(response, true, "got " + received.get(), callback);
            return true;
        }));
        CountingPublisher publisher = new CountingPublisher(500, null);
        ContentResponse response = loopback.client().POST(server.uri("/publisher"))
                .content(RequestContent.of(publisher, "application/octet-stream")).send();
        assertEquals("got " + 500 * 1024, response.getContentAsString());
        assertEquals(1, publisher.maxOutstanding.get(), "never more than one buffer asked for at once");
    }

    @Test
    void aFailingPublisherFailsTheRequest() throws Exception {
        TestServer server = loopback.server(Handler.of((request, response, callback) -> {
            try (InputStream in = Request.asInputStream(request)) {
                in.transferTo(java.io.OutputStream.nullOutputStream());
            }
            Response.write(response, true, "whole", callback);
            return true;
        }));
        CountingPublisher publisher = new CountingPublisher(10, new IllegalStateException("the publisher broke"));
        ExecutionException failed = assertThrows(ExecutionException.class, () -> loopback.client().POST(server.uri("/broken"))
                .content(RequestContent.of(publisher, "application/octet-stream")).sendAsync().get(10, TimeUnit.SECONDS));
        assertTrue(String.valueOf(failed.getCause()).contains("the publisher broke"), String.valueOf(failed.getCause()));
    }
}
