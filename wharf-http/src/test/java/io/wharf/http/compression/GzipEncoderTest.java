package io.wharf.http.compression;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.wharf.http.compression.GzipEncoder.Flush;

class GzipEncoderTest {

    private final DeflaterPool pool = new DeflaterPool(2, Deflater.DEFAULT_COMPRESSION, true);

    @AfterEach
    void noDeflaterIsLeftBorrowed() {
        assertEquals(0, pool.getInUseCount(), "a deflater is still borrowed");
        pool.close();
    }

    /** Content of a given size: random (incompressible) or text-like (compressible). */
    static byte[] content(int size, boolean compressible, long seed) {
        Random random = new Random(seed);
        byte[] bytes = new byte[size];
        if (compressible) {
            String[] words = {"wharf ", "gzip ", "deflate ", "HTTP/1.1 ", "content ", "\r\n", "{\"id\":", "42, "};
            int index = 0;
            while (index < size) {
                byte[] word = words[random.nextInt(words.length)].getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                int length = Math.min(word.length, size - index);
                System.arraycopy(word, 0, bytes, index, length);
                index += length;
            }
        } else {
            random.nextBytes(bytes);
        }
        return bytes;
    }

    static ByteBuffer buffer(int capacity, boolean direct) {
        ByteBuffer buffer = direct ? ByteBuffer.allocateDirect(capacity) : ByteBuffer.allocate(capacity);
        return buffer.limit(0);
    }

    /**
     * Encodes {@code content} in input chunks of {@code chunk} bytes through an output buffer of
     * {@code outputSize} bytes, draining it whenever it fills; @return the whole gzip stream.
     */
    static byte[] encode(GzipEncoder encoder, byte[] content, int chunk, int outputSize, boolean direct) {
        ByteArrayOutputStream gzip = new ByteArrayOutputStream();
        ByteBuffer output = buffer(outputSize, direct);
        int offset = 0;
        do {
            int length = Math.min(chunk, content.length - offset);
            ByteBuffer input = buffer(Math.max(length, 1), direct);
            input.limit(length);
            input.put(0, content, offset, length);
            offset += length;
            boolean last = offset == content.length;
            while (!encoder.encode(input, last ? Flush.FINISH : Flush.NONE, output)) {
                drain(output, gzip);
            }
            assertFalse(input.hasRemaining(), "a complete step took all the input");
        } while (offset < content.length);
        drain(output, gzip);
        assertTrue(encoder.isFinished());
        return gzip.toByteArray();
    }

    static void drain(ByteBuffer output, ByteArrayOutputStream into) {
        byte[] bytes = new byte[output.remaining()];
        output.get(bytes);
        into.write(bytes, 0, bytes.length);
        output.limit(0).position(0);
    }

    static byte[] gunzip(byte[] gzip) throws IOException {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip))) {
            return in.readAllBytes();
        }
    }

    static Stream<Arguments> roundTrips() {
        List<Arguments> rows = new ArrayList<>();
        int[] sizes = {0, 1, 2, 9, 100, 1_000, 4_095, 65_536, 100_003, 1_000_000};
        for (int size : sizes) {
            for (boolean compressible : new boolean[] {true, false}) {
                // size, input chunk, output buffer, direct buffers, compressible
                rows.add(Arguments.of(size, Math.max(size, 1), 8_192, false, compressible));
                rows.add(Arguments.of(size, 4_096, 16_384, true, compressible));
                rows.add(Arguments.of(size, 7, 13, size % 2 == 0, compressible));
                if (size <= 100_003) {
                    rows.add(Arguments.of(size, 1, 512, true, compressible));
                    rows.add(Arguments.of(size, 1_000, 1, false, compressible));
                }
            }
        }
        return rows.stream();
    }

    @ParameterizedTest(name = "{0} bytes in chunks of {1}, output {2}, direct {3}, compressible {4}")
    @MethodSource("roundTrips")
    void gzipInputStreamReadsWhatTheEncoderWrites(int size, int chunk, int outputSize, boolean direct, boolean compressible)
        throws IOException {
        byte[] content = content(size, compressible, size * 31L + chunk);
        GzipEncoder encoder = new GzipEncoder(pool);
        byte[] gzip = encode(encoder, content, chunk, outputSize, direct);
        assertArrayEquals(content, gunzip(gzip));
        assertEquals(size, encoder.getInputBytes());
        assertEquals(gzip.length, encoder.getOutputBytes());
        if (compressible && size >= 1_000) {
            assertTrue(gzip.length < size / 2, "compressed " + size + " to " + gzip.length);
        }
    }

    @Test
    void headerAndTrailerFollowRfc1952() {
        byte[] content = content(5_000, true, 7);
        byte[] gzip = encode(new GzipEncoder(pool), content, 5_000, 64, false);
        assertArrayEquals(new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff}, Arrays.copyOf(gzip, 10));
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(content);
        ByteBuffer trailer = ByteBuffer.wrap(gzip, gzip.length - 8, 8).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        assertEquals((int) crc.getValue(), trailer.getInt());
        assertEquals(5_000, trailer.getInt());
    }

    @Test
    void syncFlushEmitsEverythingSoFarAndTheStreamContinues() throws IOException, DataFormatException {
        byte[] first = content(30_000, true, 1);
        byte[] second = content(20_000, false, 2);
        GzipEncoder encoder = new GzipEncoder(pool);
        ByteArrayOutputStream gzip = new ByteArrayOutputStream();
        ByteBuffer output = buffer(1_000, false);

        ByteBuffer input = ByteBuffer.wrap(first);
        while (!encoder.encode(input, Flush.SYNC, output)) {
            drain(output, gzip);
        }
        drain(output, gzip);
        byte[] flushed = gzip.toByteArray();
        // Everything given so far decodes from the bytes sent so far, and ends on a sync marker.
        assertArrayEquals(first, inflateRaw(Arrays.copyOfRange(flushed, 10, flushed.length), first.length));
        assertArrayEquals(new byte[] {0, 0, (byte) 0xff, (byte) 0xff}, Arrays.copyOfRange(flushed, flushed.length - 4, flushed.length));

        // A second flush with nothing new adds nothing.
        assertTrue(encoder.encode(ByteBuffer.allocate(0), Flush.SYNC, output));
        assertEquals(0, output.remaining());

        input = ByteBuffer.wrap(second);
        while (!encoder.encode(input, Flush.FINISH, output)) {
            drain(output, gzip);
        }
        drain(output, gzip);
        byte[] whole = new byte[first.length + second.length];
        System.arraycopy(first, 0, whole, 0, first.length);
        System.arraycopy(second, 0, whole, first.length, second.length);
        assertArrayEquals(whole, gunzip(gzip.toByteArray()));
    }

    private static byte[] inflateRaw(byte[] deflated, int expectedLength) throws DataFormatException {
        Inflater inflater = new Inflater(true);
        try {
            inflater.setInput(deflated);
            byte[] output = new byte[expectedLength + 16];
            int length = 0;
            int produced;
            while ((produced = inflater.inflate(output, length, output.length - length)) > 0) {
                length += produced;
            }
            return Arrays.copyOf(output, length);
        } finally {
            inflater.end();
        }
    }

    @Test
    void appendsAfterBytesAlreadyHeldInTheOutput() throws IOException {
        ByteBuffer output = ByteBuffer.allocate(4_096);
        output.put(new byte[] {'a', 'b', 'c'}).flip();
        output.get(); // the held bytes now start at 1: "bc"
        GzipEncoder encoder = new GzipEncoder(pool);
        byte[] content = content(2_000, true, 3);
        assertTrue(encoder.encode(ByteBuffer.wrap(content), Flush.FINISH, output));
        assertEquals('b', output.get());
        assertEquals('c', output.get());
        byte[] gzip = new byte[output.remaining()];
        output.get(gzip);
        assertArrayEquals(content, gunzip(gzip));
    }

    @Test
    void readOnlyInputIsEncoded() throws IOException {
        byte[] content = content(10_000, true, 4);
        GzipEncoder encoder = new GzipEncoder(pool);
        ByteBuffer output = buffer(20_000, true);
        assertTrue(encoder.encode(ByteBuffer.wrap(content).asReadOnlyBuffer(), Flush.FINISH, output));
        byte[] gzip = new byte[output.remaining()];
        output.get(gzip);
        assertArrayEquals(content, gunzip(gzip));
    }

    @Test
    void theDeflaterGoesBackToThePoolWhenTheStreamEnds() {
        GzipEncoder encoder = new GzipEncoder(pool);
        ByteBuffer output = buffer(64, false);
        assertTrue(encoder.encode(ByteBuffer.wrap(new byte[100]), Flush.NONE, output));
        assertEquals(1, pool.getInUseCount());
        while (!encoder.encode(ByteBuffer.allocate(0), Flush.FINISH, output)) {
            output.limit(0).position(0);
        }
        assertEquals(0, pool.getInUseCount());
        assertEquals(1, pool.getIdleCount());
        IllegalStateException failure = assertThrows(IllegalStateException.class,
            () -> encoder.encode(ByteBuffer.allocate(1), Flush.FINISH, buffer(64, false)));
        assertTrue(failure.getMessage().contains("finished"), failure.getMessage());
    }

    @Test
    void abortGivesTheDeflaterBack() {
        GzipEncoder encoder = new GzipEncoder(pool);
        assertTrue(encoder.encode(ByteBuffer.wrap(content(50_000, false, 5)), Flush.NONE, buffer(100_000, false)));
        assertEquals(1, pool.getInUseCount());
        encoder.abort();
        encoder.abort();
        assertTrue(encoder.isAborted());
        assertEquals(0, pool.getInUseCount());
        assertEquals(1, pool.getIdleCount());
        assertThrows(IllegalStateException.class, () -> encoder.encode(ByteBuffer.allocate(1), Flush.NONE, buffer(64, false)));
    }

    @Test
    void anEncoderThatNeverEncodedBorrowsNothing() {
        GzipEncoder encoder = new GzipEncoder(pool);
        assertEquals(0, pool.getInUseCount());
        encoder.abort();
        assertEquals(0, pool.getIdleCount());
    }

    @Test
    void finishMustBeRepeatedUntilComplete() {
        GzipEncoder encoder = new GzipEncoder(pool);
        ByteBuffer output = buffer(16, false);
        assertFalse(encoder.encode(ByteBuffer.wrap(content(10_000, false, 6)), Flush.FINISH, output));
        IllegalStateException failure = assertThrows(IllegalStateException.class,
            () -> encoder.encode(ByteBuffer.allocate(0), Flush.NONE, buffer(16, false)));
        assertTrue(failure.getMessage().contains("FINISH"), failure.getMessage());
        assertTrue(encoder.isAborted(), "a misuse aborts the stream");
    }

    @Test
    void aFullOutputIsReportedAndAnEmptyOneRejected() {
        GzipEncoder encoder = new GzipEncoder(pool);
        ByteBuffer input = ByteBuffer.allocate(1);
        assertFalse(encoder.encode(input, Flush.NONE, ByteBuffer.allocate(4)));
        assertEquals(1, input.remaining());
        assertEquals(0, encoder.getOutputBytes());
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
            () -> encoder.encode(input, Flush.NONE, ByteBuffer.allocate(0)));
        assertTrue(failure.getMessage().contains("no capacity"), failure.getMessage());
    }

    @Test
    void rejectsAZlibPool() {
        try (DeflaterPool zlib = new DeflaterPool(1, 6, false)) {
            assertThrows(IllegalArgumentException.class, () -> new GzipEncoder(zlib));
        }
    }
}
