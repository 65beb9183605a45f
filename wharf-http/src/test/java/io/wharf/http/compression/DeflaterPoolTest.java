package io.wharf.http.compression;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** DeflaterPool and InflaterPool with real zlib streams. */
class DeflaterPoolTest {

    private static final byte[] TEXT = "the quick brown fox jumps over the lazy dog, again and again and again"
        .getBytes(StandardCharsets.US_ASCII);

    @ParameterizedTest
    @CsvSource({
        "-1, true",
        "0, true",
        "1, true",
        "6, true",
        "9, true",
        "-2, false",
        "10, false",
        "2147483647, false",
    })
    void acceptsOnlyZlibLevels(int level, boolean valid) {
        if (valid) {
            try (DeflaterPool pool = new DeflaterPool(1, level, true)) {
                assertEquals(level, pool.getLevel());
            }
        } else {
            IllegalArgumentException failure = assertThrows(IllegalArgumentException.class, () -> new DeflaterPool(1, level, true));
            assertTrue(failure.getMessage().contains("level"), failure.getMessage());
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aReusedDeflaterStartsAFreshStream(boolean nowrap) throws DataFormatException {
        try (DeflaterPool deflaters = new DeflaterPool(2, Deflater.BEST_SPEED, nowrap);
             InflaterPool inflaters = new InflaterPool(2, nowrap)) {
            Deflater first = null;
            for (int round = 0; round < 3; round++) {
                CodecPool.Lease<Deflater> lease = deflaters.acquire();
                if (first == null) {
                    first = lease.codec();
                } else {
                    assertSame(first, lease.codec(), "the idle deflater is reused");
                }
                byte[] compressed = deflate(lease.codec());
                lease.release();
                assertArrayEquals(TEXT, inflate(inflaters, compressed));
            }
            assertEquals(1, deflaters.getIdleCount());
            assertEquals(1, inflaters.getIdleCount());
        }
    }

    @Test
    void closeEndsPooledDeflatersAndInflaters() {
        DeflaterPool deflaters = new DeflaterPool(4, Deflater.DEFAULT_COMPRESSION, true);
        InflaterPool inflaters = new InflaterPool(4, true);
        CodecPool.Lease<Deflater> deflaterLease = deflaters.acquire();
        CodecPool.Lease<Inflater> inflaterLease = inflaters.acquire();
        Deflater deflater = deflaterLease.codec();
        Inflater inflater = inflaterLease.codec();
        deflaterLease.release();
        inflaterLease.release();

        deflaters.close();
        inflaters.close();

        // An ended zlib stream refuses every use (NullPointerException up to JDK 24, IllegalStateException since).
        RuntimeException deflaterClosed = assertThrows(RuntimeException.class, deflater::getBytesRead);
        RuntimeException inflaterClosed = assertThrows(RuntimeException.class, inflater::getBytesRead);
        assertTrue(deflaterClosed.getMessage().contains("closed"), deflaterClosed.toString());
        assertTrue(inflaterClosed.getMessage().contains("closed"), inflaterClosed.toString());
        assertEquals(0, deflaters.getIdleCount());
        assertTrue(deflaters.isClosed() && inflaters.isClosed());
    }

    @Test
    void poolFormatsAreWhatTheFactoriesSay() {
        try (DeflaterPool gzip = DeflaterPool.forGzip();
             InflaterPool gunzip = InflaterPool.forGzip();
             InflaterPool zlib = InflaterPool.forZlib()) {
            assertTrue(gzip.isNowrap());
            assertEquals(Deflater.DEFAULT_COMPRESSION, gzip.getLevel());
            assertEquals(DeflaterPool.DEFAULT_CAPACITY, gzip.getCapacity());
            assertTrue(gunzip.isNowrap());
            assertEquals(false, zlib.isNowrap());
            assertTrue(DeflaterPool.DEFAULT_CAPACITY >= 8);
        }
    }

    @Test
    void manyThreadsCompressWithPooledDeflaters() throws Exception {
        int threads = 8;
        int iterations = 2_000;
        DeflaterPool deflaters = new DeflaterPool(3, Deflater.BEST_SPEED, true);
        InflaterPool inflaters = new InflaterPool(3, true);
        CyclicBarrier start = new CyclicBarrier(threads);
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> results = new ArrayList<>();
            for (int thread = 0; thread < threads; thread++) {
                results.add(executor.submit(() -> {
                    start.await();
                    for (int iteration = 0; iteration < iterations; iteration++) {
                        CodecPool.Lease<Deflater> lease = deflaters.acquire();
                        byte[] compressed = deflate(lease.codec());
                        lease.release();
                        assertArrayEquals(TEXT, inflate(inflaters, compressed));
                    }
                    return null;
                }));
            }
            for (Future<?> result : results) {
                result.get(120, TimeUnit.SECONDS);
            }
            assertEquals(0, deflaters.getInUseCount());
            assertTrue(deflaters.getIdleCount() <= 3);
        } finally {
            executor.shutdownNow();
            deflaters.close();
            inflaters.close();
        }
    }

    private static byte[] deflate(Deflater deflater) {
        deflater.setInput(TEXT);
        deflater.finish();
        byte[] output = new byte[256];
        int length = 0;
        while (!deflater.finished()) {
            length += deflater.deflate(output, length, output.length - length);
        }
        return java.util.Arrays.copyOf(output, length);
    }

    private static byte[] inflate(InflaterPool pool, byte[] compressed) throws DataFormatException {
        CodecPool.Lease<Inflater> lease = pool.acquire();
        try {
            Inflater inflater = lease.codec();
            inflater.setInput(compressed);
            byte[] output = new byte[TEXT.length * 2];
            int length = 0;
            while (!inflater.finished()) {
                int inflated = inflater.inflate(output, length, output.length - length);
                if (inflated == 0 && inflater.needsInput()) {
                    throw new AssertionError("truncated");
                }
                length += inflated;
            }
            return java.util.Arrays.copyOf(output, length);
        } finally {
            lease.release();
        }
    }
}
