package io.wharf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.wharf.io.Content;
import io.wharf.server.Handler;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Content larger than memory should hold: a 100 MB file upload and a 1 GB download, each
 * streamed with bounded memory, and the back-pressure of demand.
 */
@Timeout(120)
class StreamingTest {

    private static final long MB = 1024 * 1024;

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @RegisterExtension
    final Loopback loopback = new Loopback(leaks);

    @TempDir
    Path directory;

    private TestServer server;
    private HttpClient client;

    private void start(Handler handler) throws Exception {
        server = loopback.server(handler);
        client = loopback.client();
    }

    /** @return the heap in use after a full collection, in bytes */
    private static long heapAfterGc() {
        Runtime runtime = Runtime.getRuntime();
        System.gc();
        return runtime.totalMemory() - runtime.freeMemory();
    }

    @Test
    void aHundredMegabyteFileIsUploadedWithBoundedMemory() throws Exception {
        long size = 100 * MB;
        Path file = directory.resolve("upload.bin");
        try (OutputStream out = Files.newOutputStream(file)) {
            byte[] block = new byte[(int) MB];
            for (int i = 0; i < block.length; i++) {
                block[i] = (byte) i;
            }
            for (int i = 0; i < size / MB; i++) {
                out.write(block);
            }
        }
        long baseline = heapAfterGc();
        AtomicLong heapMidway = new AtomicLong(-1);
        AtomicInteger buffersMidway = new AtomicInteger(-1);
        start(Handler.of((request, response, callback) -> {
            long count = 0;
            long checksum = 0;
            byte[] bytes = new byte[64 * 1024];
            try (InputStream in = io.wharf.server.Request.asInputStream(request)) {
                int read;
                while ((read = in.read(bytes)) >= 0) {
                    for (int i = 0; i < read; i++) {
                        checksum += bytes[i] & 0xFF;
                    }
                    if (count < size / 2 && count + read >= size / 2) {
                        // Halfway: what is held now, client and server together?
                        heapMidway.set(heapAfterGc());
                        buffersMidway.set(leaks.pool().outstanding());
                    }
                    count += read;
                }
            }
            io.wharf.server.Response.write(response, true, count + " " + checksum, callback);
            return true;
        }));
        long start = System.nanoTime();
        ContentResponse response = client.newRequest(server.uri("/upload")).method("PUT")
                .content(RequestContent.of(file)).send();
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        long expectedChecksum = (size / MB) * (MB / 256) * (255 * 256 / 2);
        assertEquals(size + " " + expectedChecksum, response.getContentAsString());
        long held = heapMidway.get() - baseline;
        assertTrue(held < 32 * MB, "heap grew by " + held / MB + " MB during a " + size / MB + " MB upload");
        assertTrue(buffersMidway.get() < 16, buffersMidway.get() + " pooled buffers held midway");
        System.out.printf("upload of %d MB in %d ms, heap +%d KB and %d pooled buffers midway%n",
                size / MB, millis, held / 1024, buffersMidway.get());
    }

    @Test
    void aGigabyteIsDownloadedWithBoundedMemoryThroughTheInputStream() throws Exception {
        long size = 1024 * MB;
        start(Handler.of((request, response, callback) -> {
            response.getHeaders().put("Content-Length", String.valueOf(size));
            byte[] block = new byte[64 * 1024];
            for (int i = 0; i < block.length; i++) {
                block[i] = (byte) (i * 31);
            }
            try (OutputStream out = io.wharf.server.Response.asOutputStream(response)) {
                for (long written = 0; written < size; written += block.length) {
                    out.write(block);
                }
            }
            callback.succeeded();
            return true;
        }));
        long baseline = heapAfterGc();
        InputStreamResponseListener listener = new InputStreamResponseListener();
        long start = System.nanoTime();
        client.newRequest(server.uri("/gigabyte")).send(listener);
        Response response = listener.get(10, TimeUnit.SECONDS);
        assertEquals(String.valueOf(size), response.getHeaders().get("Content-Length"));
        long count = 0;
        long mismatches = 0;
        long heapMidway = -1;
        int buffersMidway = -1;
        byte[] bytes = new byte[64 * 1024];
        try (InputStream in = listener.getInputStream()) {
            int read;
            while ((read = in.read(bytes)) >= 0) {
                for (int i = 0; i < read; i++) {
                    if (bytes[i] != (byte) (((count + i) % (64 * 1024)) * 31)) {
                        mismatches++;
                    }
                }
                if (count < size / 2 && count + read >= size / 2) {
                    heapMidway = heapAfterGc();
                    buffersMidway = leaks.pool().outstanding();
                }
                count += read;
            }
        }
        assertEquals(size, count);
        assertEquals(0, mismatches);
        long held = heapMidway - baseline;
        assertTrue(held < 32 * MB, "heap grew by " + held / MB + " MB during a " + size / MB + " MB download");
        assertTrue(buffersMidway < 16, buffersMidway + " pooled buffers held midway");
        System.out.printf("download of %d MB in %d ms, heap +%d KB and %d pooled buffers midway%n",
                size / MB, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start), held / 1024, buffersMidway);
    }

    @Test
    void nothingIsReadUntilTheListenerDemands() throws Exception {
        long size = 64 * MB;
        AtomicLong written = new AtomicLong();
        start(Handler.of((request, response, callback) -> {
            byte[] block = new byte[16 * 1024];
            try (OutputStream out = io.wharf.server.Response.asOutputStream(response)) {
                for (long sent = 0; sent < size; sent += block.length) {
                    out.write(block);
                    written.addAndGet(block.length);
                }
            }
            callback.succeeded();
            return true;
        }));
        java.util.concurrent.BlockingQueue<Runnable> demands = new java.util.concurrent.LinkedBlockingQueue<>();
        AtomicLong received = new AtomicLong();
        AtomicInteger chunks = new AtomicInteger();
        CountDownLatch firstChunk = new CountDownLatch(1);
        CompletableFuture<Result> done = new CompletableFuture<>();
        client.newRequest(server.uri("/flood")).send(new Response.Listener() {
            @Override
            public void onContent(Response response, Content.Chunk chunk, Runnable demand) {
                received.addAndGet(chunk.remaining());
                chunks.incrementAndGet();
                demands.add(demand);
                firstChunk.countDown();
            }

            @Override
            public void onComplete(Result result) {
                done.complete(result);
            }
        });
        assertTrue(firstChunk.await(10, TimeUnit.SECONDS));
        // Proving that nothing moves takes time: watch the server for a while.
        long writtenBefore;
        do {
            writtenBefore = written.get();
            Thread.sleep(200);
        } while (written.get() != writtenBefore);
        assertEquals(1, chunks.get(), "no chunk without demand");
        assertTrue(written.get() < size / 2, "the server is held back: " + written.get() + " bytes written");
        // Demanding from this thread, chunk after chunk, reads the rest.
        while (!done.isDone()) {
            Runnable demand = demands.poll(100, TimeUnit.MILLISECONDS);
            if (demand != null) {
                demand.run();
            }
        }
        assertTrue(done.get().isSucceeded());
        assertEquals(size, received.get());
    }
}
