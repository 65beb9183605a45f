package io.wharf.http.compression;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import io.wharf.http.BadMessageException;
import io.wharf.http.compression.ContentDecoder.Progress;
import io.wharf.testing.LinearTime;

class GzipDecoderTest {

    private static final byte[] TEXT = "Wharf inflates gzip bodies within limits. ".repeat(50).getBytes(StandardCharsets.US_ASCII);

    private final InflaterPool pool = new InflaterPool(2, true);

    @AfterEach
    void noInflaterIsLeftBorrowed() {
        assertEquals(0, pool.getInUseCount(), "an inflater is still borrowed");
        pool.close();
    }

    static byte[] gzip(byte[] content) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
            out.write(content);
        } catch (IOException x) {
            throw new AssertionError(x);
        }
        return bytes.toByteArray();
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            bytes.writeBytes(part);
        }
        return bytes.toByteArray();
    }

    /**
     * Feeds {@code compressed} to {@code decoder} in chunks of {@code chunk} bytes, the last one
     * flagged, through an output buffer of {@code outputSize} bytes; @return all inflated bytes.
     */
    static byte[] decode(ContentDecoder decoder, byte[] compressed, int chunk, int outputSize, boolean direct) {
        ByteArrayOutputStream inflated = new ByteArrayOutputStream();
        ByteBuffer output = GzipEncoderTest.buffer(outputSize, direct);
        int offset = 0;
        do {
            int length = Math.min(chunk, compressed.length - offset);
            ByteBuffer input = GzipEncoderTest.buffer(Math.max(length, 1), direct);
            input.limit(length);
            input.put(0, compressed, offset, length);
            offset += length;
            boolean last = offset == compressed.length;
            Progress progress;
            while ((progress = decoder.decode(input, last, output)) == Progress.OUTPUT_FULL) {
                GzipEncoderTest.drain(output, inflated);
            }
            assertFalse(input.hasRemaining(), "all input taken");
            assertEquals(last ? Progress.FINISHED : Progress.NEEDS_INPUT, progress);
        } while (offset < compressed.length);
        GzipEncoderTest.drain(output, inflated);
        assertTrue(decoder.isFinished());
        assertEquals(compressed.length, decoder.getCompressedBytes());
        return inflated.toByteArray();
    }

    static Stream<Arguments> roundTrips() {
        List<Arguments> rows = new ArrayList<>();
        int[] sizes = {0, 1, 10, 1_000, 32_768, 100_000, 1_000_000};
        for (int size : sizes) {
            for (boolean compressible : new boolean[] {true, false}) {
                // size, input chunk, output buffer, direct buffers, compressible
                rows.add(Arguments.of(size, Integer.MAX_VALUE, 8_192, false, compressible));
                rows.add(Arguments.of(size, 4_096, 65_536, true, compressible));
                rows.add(Arguments.of(size, 13, 7, size % 2 == 0, compressible));
                if (size <= 100_000) {
                    rows.add(Arguments.of(size, 1, 1_000, true, compressible));
                    rows.add(Arguments.of(size, 1_000, 1, false, compressible));
                }
            }
        }
        return rows.stream();
    }

    @ParameterizedTest(name = "{0} bytes in chunks of {1}, output {2}, direct {3}, compressible {4}")
    @MethodSource("roundTrips")
    void decodesWhatGzipOutputStreamWrites(int size, int chunk, int outputSize, boolean direct, boolean compressible) {
        byte[] content = GzipEncoderTest.content(size, compressible, size * 17L + chunk);
        GzipDecoder decoder = new GzipDecoder(pool);
        assertArrayEquals(content, decode(decoder, gzip(content), chunk, outputSize, direct));
        assertEquals(size, decoder.getInflatedBytes());
    }

    @ParameterizedTest(name = "{0} bytes in chunks of {1}")
    @CsvSource({"0, 1", "1, 1", "5000, 1", "5000, 3", "100000, 4096", "300000, 65536"})
    void decodesWhatGzipEncoderWrites(int size, int chunk) {
        byte[] content = GzipEncoderTest.content(size, size % 2 == 0, size);
        try (DeflaterPool deflaters = DeflaterPool.forGzip()) {
            byte[] gzip = GzipEncoderTest.encode(new GzipEncoder(deflaters), content, chunk, 1_024, true);
            assertArrayEquals(content, decode(new GzipDecoder(pool), gzip, chunk, 1_024, false));
        }
    }

    @ParameterizedTest(name = "members split in chunks of {0}")
    @CsvSource({"1", "7", "10", "18", "100", "2147483647"})
    void concatenatedMembersDecodeToTheirConcatenatedContent(int chunk) {
        byte[] first = "first member;".getBytes(StandardCharsets.US_ASCII);
        byte[] second = GzipEncoderTest.content(3_000, false, 9);
        byte[] third = new byte[0];
        byte[] stream = concat(gzip(first), gzip(second), gzip(third));
        assertArrayEquals(concat(first, second, third), decode(new GzipDecoder(pool), stream, chunk, 500, false));
    }

    @Test
    void aBodyMayEndAfterAnyMemberWithAnEmptyLastChunk() {
        GzipDecoder decoder = new GzipDecoder(pool);
        ByteBuffer output = ByteBuffer.allocate(TEXT.length).limit(0);
        assertEquals(Progress.NEEDS_INPUT, decoder.decode(ByteBuffer.wrap(gzip(TEXT)), false, output));
        assertEquals(0, pool.getInUseCount(), "the inflater goes back at the end of each member");
        assertEquals(Progress.FINISHED, decoder.decode(ByteBuffer.allocate(0), true, output));
        assertEquals(TEXT.length, output.remaining());
        assertThrows(IllegalStateException.class, () -> decoder.decode(ByteBuffer.allocate(0), true, output));
    }

    /** A member with an RFC 1952 header of the given flags and fields around {@link #TEXT}. */
    static byte[] member(int flags, byte[] extra, String name, String comment, boolean rightHeaderCrc) {
        ByteArrayOutputStream header = new ByteArrayOutputStream();
        header.writeBytes(new byte[] {0x1f, (byte) 0x8b, 8, (byte) flags, 1, 2, 3, 4, 2, 3});
        if (extra != null) {
            header.write(extra.length & 0xFF);
            header.write(extra.length >>> 8);
            header.writeBytes(extra);
        }
        if (name != null) {
            header.writeBytes(name.getBytes(StandardCharsets.ISO_8859_1));
            header.write(0);
        }
        if (comment != null) {
            header.writeBytes(comment.getBytes(StandardCharsets.ISO_8859_1));
            header.write(0);
        }
        if ((flags & 0x02) != 0) {
            CRC32 crc = new CRC32();
            crc.update(header.toByteArray());
            int value = (int) crc.getValue() ^ (rightHeaderCrc ? 0 : 1);
            header.write(value & 0xFF);
            header.write((value >>> 8) & 0xFF);
        }
        byte[] plain = gzip(TEXT);
        // Keep the deflate data and trailer of GZIPOutputStream's member, after its 10-byte header.
        return concat(header.toByteArray(), Arrays.copyOfRange(plain, 10, plain.length));
    }

    static Stream<Arguments> headers() {
        byte[] extra = {'A', 'P', 4, 0, 1, 2, 3, 4};
        String longName = "n".repeat(1_023);
        return Stream.of(
            // description, member bytes, expected reason (null: decodes)
            Arguments.of("no flags", member(0, null, null, null, true), null),
            Arguments.of("FTEXT", member(0x01, null, null, null, true), null),
            Arguments.of("FHCRC", member(0x02, null, null, null, true), null),
            Arguments.of("FEXTRA", member(0x04, extra, null, null, true), null),
            Arguments.of("FEXTRA empty", member(0x04, new byte[0], null, null, true), null),
            Arguments.of("FNAME", member(0x08, null, "report.json", null, true), null),
            Arguments.of("FNAME empty", member(0x08, null, "", null, true), null),
            Arguments.of("FNAME at the limit", member(0x08, null, longName, null, true), null),
            Arguments.of("FCOMMENT", member(0x10, null, null, "made by a test", true), null),
            Arguments.of("all fields", member(0x1F, extra, "a.txt", "comment", true), null),
            Arguments.of("FEXTRA at the limit", member(0x04, new byte[1_024], null, null, true), null),
            Arguments.of("bad magic 1", concat(new byte[] {0x1e}, Arrays.copyOfRange(gzip(TEXT), 1, 40)), "not a gzip stream"),
            Arguments.of("bad magic 2", concat(new byte[] {0x1f, 0x0b}, Arrays.copyOfRange(gzip(TEXT), 2, 40)), "not a gzip stream"),
            Arguments.of("zlib, not gzip", new byte[] {0x78, (byte) 0x9c, 3, 0, 0, 0, 0, 1}, "not a gzip stream"),
            Arguments.of("method 7", withByte(gzip(TEXT), 2, 7), "compression method 7 is not deflate"),
            Arguments.of("reserved flag 0x20", member(0x20, null, null, null, true), "reserved flag bits"),
            Arguments.of("reserved flag 0x40", member(0x40, null, null, null, true), "reserved flag bits"),
            Arguments.of("reserved flag 0x80", member(0x80, null, null, null, true), "reserved flag bits"),
            Arguments.of("wrong header CRC", member(0x1A, extra, "a.txt", null, false), "header CRC mismatch"),
            Arguments.of("FEXTRA too long", member(0x04, new byte[1_025], null, null, true), "extra field of 1025 bytes"),
            Arguments.of("FNAME too long", member(0x08, null, longName + "n", null, true), "file name is longer than the limit of 1024"),
            Arguments.of("FCOMMENT too long", member(0x10, null, null, "c".repeat(5_000), true), "comment is longer than the limit of 1024"));
    }

    static byte[] withByte(byte[] bytes, int index, int value) {
        byte[] copy = bytes.clone();
        copy[index] = (byte) value;
        return copy;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("headers")
    void headerFlagsAndFieldsAreReadOrRejected(String description, byte[] member, String reason) {
        for (int chunk : new int[] {1, 5, member.length}) {
            GzipDecoder decoder = new GzipDecoder(pool);
            if (reason == null) {
                assertArrayEquals(TEXT, decode(decoder, member, chunk, 256, false), description);
            } else {
                BadMessageException failure = assertThrows(BadMessageException.class, () -> decode(decoder, member, chunk, 256, false));
                assertEquals(400, failure.getStatus());
                assertTrue(failure.getReason().contains(reason), failure.getReason());
                assertThrows(IllegalStateException.class, () -> decoder.decode(ByteBuffer.allocate(1), true, ByteBuffer.allocate(8)));
            }
        }
    }

    static IntStream cutPoints() {
        return IntStream.range(0, gzip(TEXT).length);
    }

    @ParameterizedTest(name = "cut after {0} bytes")
    @MethodSource("cutPoints")
    void aTruncatedStreamFailsAtItsEnd(int length) {
        byte[] truncated = Arrays.copyOf(gzip(TEXT), length);
        GzipDecoder decoder = new GzipDecoder(pool);
        BadMessageException failure = assertThrows(BadMessageException.class, () -> decode(decoder, truncated, 16, 4_096, false));
        assertEquals(400, failure.getStatus());
        String expected = length == 0 ? "gzip content is empty" : "truncated";
        assertTrue(failure.getReason().contains(expected), length + ": " + failure.getReason());
    }

    static Stream<Arguments> corruptions() {
        byte[] gzip = gzip(TEXT);
        int length = gzip.length;
        return Stream.of(
            // description, stream, expected reason
            Arguments.of("CRC-32 off by one bit", withByte(gzip, length - 8, gzip[length - 8] ^ 1), "CRC-32 mismatch"),
            Arguments.of("ISIZE one too many", withByte(gzip, length - 4, gzip[length - 4] + 1), "trailer length 2101 differs from the inflated length 2100"),
            Arguments.of("reserved deflate block type", withByte(gzip, 10, 0x07), "gzip content is corrupt"),
            Arguments.of("garbage after the member", concat(gzip, new byte[] {0, 0}), "not a gzip stream"),
            Arguments.of("second member corrupt", concat(gzip, withByte(gzip, length - 1, 9)), "trailer length"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corruptions")
    void corruptContentFailsWith400(String description, byte[] stream, String reason) {
        GzipDecoder decoder = new GzipDecoder(pool);
        BadMessageException failure = assertThrows(BadMessageException.class, () -> decode(decoder, stream, 100, 1_000, true));
        assertEquals(400, failure.getStatus(), description);
        assertTrue(failure.getReason().contains(reason), failure.getReason());
    }

    @ParameterizedTest(name = "{0} bytes with a limit of {1}: passes {2}")
    @CsvSource({
        "0, 0, true",
        "1, 0, false",
        "1000, 999, false",
        "1000, 1000, true",
        "1000, 1001, true",
        "100000, 99999, false",
        "100000, 100000, true",
    })
    void theInflatedLimitIsExact(int size, long limit, boolean passes) {
        byte[] content = GzipEncoderTest.content(size, true, size);
        GzipDecoder decoder = new GzipDecoder(pool, DecoderLimits.DEFAULT.withMaxInflatedBytes(limit));
        if (passes) {
            assertArrayEquals(content, decode(decoder, gzip(content), 1_000, 333, false));
        } else {
            BadMessageException failure = assertThrows(BadMessageException.class, () -> decode(decoder, gzip(content), 1_000, 333, false));
            assertEquals(413, failure.getStatus());
            assertEquals("inflated content larger than " + limit + " bytes", failure.getReason());
            assertEquals(limit + 1, decoder.getInflatedBytes(), "stops one byte past the limit");
        }
    }

    /**
     * A gzip member whose deflate data repeats one sync-flushed block of a mebibyte of zeros
     * {@code mebibytes} times: a few bytes per mebibyte, so a small body claims gigabytes.
     */
    static byte[] bomb(int mebibytes) {
        Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION, true);
        try {
            byte[] zeros = new byte[1 << 20];
            byte[] first = syncFlush(deflater, zeros);
            byte[] repeated = syncFlush(deflater, zeros);
            assertArrayEquals(repeated, syncFlush(deflater, zeros), "zlib repeats itself on zeros");
            ByteArrayOutputStream bomb = new ByteArrayOutputStream();
            bomb.writeBytes(new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff});
            bomb.writeBytes(first);
            for (int index = 1; index < mebibytes; index++) {
                bomb.writeBytes(repeated);
            }
            return bomb.toByteArray();
        } finally {
            deflater.end();
        }
    }

    private static byte[] syncFlush(Deflater deflater, byte[] content) {
        deflater.setInput(content);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[4_096];
        int length;
        while ((length = deflater.deflate(buffer, 0, buffer.length, Deflater.SYNC_FLUSH)) > 0) {
            out.write(buffer, 0, length);
            if (length < buffer.length && deflater.needsInput()) {
                break;
            }
        }
        return out.toByteArray();
    }

    @Test
    void aTenGibibyteBombFailsAtTheLimitAfterReadingLittle() {
        byte[] bomb = bomb(10 * 1024);
        assertTrue(bomb.length < 20 * 1024 * 1024, "bomb of " + bomb.length + " bytes");
        // The limit, not the input, sets the work here: an absolute budget, the best of 3 runs.
        LinearTime.assertWithin("inflating a bomb to the limit", Duration.ofSeconds(5), () -> {
            GzipDecoder decoder = new GzipDecoder(pool);
            ByteBuffer input = ByteBuffer.wrap(bomb);
            ByteBuffer output = ByteBuffer.allocate(64 * 1024).limit(0);
            long delivered = 0;
            BadMessageException failure = null;
            try {
                while (true) {
                    Progress progress = decoder.decode(input, true, output);
                    assertEquals(Progress.OUTPUT_FULL, progress);
                    delivered += output.remaining();
                    output.limit(0).position(0);
                }
            } catch (BadMessageException x) {
                failure = x;
            }
            delivered += output.remaining();
            assertEquals(413, failure.getStatus());
            assertEquals("inflated content larger than 10485760 bytes", failure.getReason());
            assertEquals(10 * 1024 * 1024 + 1, delivered, "inflated no more than one byte past the limit");
            assertTrue(decoder.getCompressedBytes() < 64 * 1024, "read " + decoder.getCompressedBytes() + " bytes of the bomb");
        });
    }

    @ParameterizedTest(name = "ratio {0}, grace {1}: {2}")
    @CsvSource({
        // max ratio, grace bytes, expected failure (empty: decodes)
        "0, 0, ''",
        "2000, 0, ''",
        "100, 0, 'inflated content more than 100 times larger than its gzip form'",
        "100, 2000000, ''",
        "500, 65536, 'inflated content more than 500 times larger than its gzip form'",
    })
    void theRatioLimitCatchesABombEarly(int ratio, long grace, String reason) {
        byte[] bomb = concat(gzip(new byte[1_000_000]));
        GzipDecoder decoder = new GzipDecoder(pool, DecoderLimits.DEFAULT.withMaxRatio(ratio, grace));
        if (reason.isEmpty()) {
            assertEquals(1_000_000, decode(decoder, bomb, 512, 8_192, false).length);
        } else {
            BadMessageException failure = assertThrows(BadMessageException.class, () -> decode(decoder, bomb, 512, 8_192, false));
            assertEquals(413, failure.getStatus());
            assertEquals(reason, failure.getReason());
            assertTrue(decoder.getInflatedBytes() <= Math.max(grace, 200_000), "inflated " + decoder.getInflatedBytes());
        }
    }

    @Test
    void abortGivesTheInflaterBackAndEndsTheDecoder() {
        GzipDecoder decoder = new GzipDecoder(pool);
        byte[] gzip = gzip(GzipEncoderTest.content(100_000, false, 1));
        ByteBuffer output = ByteBuffer.allocate(1_000).limit(0);
        assertEquals(Progress.OUTPUT_FULL, decoder.decode(ByteBuffer.wrap(gzip), false, output));
        assertEquals(1, pool.getInUseCount());
        decoder.abort();
        decoder.abort();
        assertEquals(0, pool.getInUseCount());
        assertEquals(1, pool.getIdleCount());
        assertFalse(decoder.isFinished());
        assertThrows(IllegalStateException.class, () -> decoder.decode(ByteBuffer.wrap(gzip), true, ByteBuffer.allocate(10)));
    }

    @Test
    void aFullOutputIsReportedAndAnEmptyOneRejected() {
        GzipDecoder decoder = new GzipDecoder(pool);
        ByteBuffer input = ByteBuffer.wrap(gzip(TEXT));
        ByteBuffer full = ByteBuffer.allocate(4);
        assertEquals(Progress.OUTPUT_FULL, decoder.decode(input, true, full));
        assertEquals(4, full.remaining(), "nothing overwritten");
        assertEquals(0, full.position());
        assertTrue(input.position() >= 10, "the header needs no output space: " + input.position());
        assertThrows(IllegalArgumentException.class, () -> decoder.decode(input, true, ByteBuffer.allocate(0)));
        full.limit(0); // the caller drained its 4 bytes
        ByteArrayOutputStream inflated = new ByteArrayOutputStream();
        while (decoder.decode(input, true, full) == Progress.OUTPUT_FULL) {
            GzipEncoderTest.drain(full, inflated);
        }
        GzipEncoderTest.drain(full, inflated);
        assertArrayEquals(TEXT, inflated.toByteArray());
        assertTrue(decoder.isFinished());
    }

    @Test
    void rejectsAZlibPool() {
        try (InflaterPool zlib = InflaterPool.forZlib()) {
            assertThrows(IllegalArgumentException.class, () -> new GzipDecoder(zlib));
        }
    }
}
