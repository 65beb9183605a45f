package io.wharf.http.compression;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.stream.Stream;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import io.wharf.http.BadMessageException;
import io.wharf.http.compression.ContentDecoder.Progress;

class ZlibDecoderTest {

    private final InflaterPool pool = new InflaterPool(2, false);

    @AfterEach
    void noInflaterIsLeftBorrowed() {
        assertEquals(0, pool.getInUseCount(), "an inflater is still borrowed");
        pool.close();
    }

    static byte[] zlib(byte[] content, boolean nowrap) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, nowrap);
        try (DeflaterOutputStream out = new DeflaterOutputStream(bytes, deflater)) {
            out.write(content);
        } catch (IOException x) {
            throw new AssertionError(x);
        } finally {
            deflater.end();
        }
        return bytes.toByteArray();
    }

    @ParameterizedTest(name = "{0} bytes in chunks of {1}, output {2}")
    @CsvSource({
        "0, 1, 16",
        "1, 1, 1",
        "1000, 1, 7",
        "65536, 4096, 1000",
        "300000, 100000, 65536",
        "300000, 13, 8192",
    })
    void decodesWhatDeflaterOutputStreamWrites(int size, int chunk, int outputSize) {
        byte[] content = GzipEncoderTest.content(size, size % 2 == 0, size);
        ZlibDecoder decoder = new ZlibDecoder(pool);
        assertArrayEquals(content, GzipDecoderTest.decode(decoder, zlib(content, false), chunk, outputSize, size % 3 == 0));
        assertEquals(size, decoder.getInflatedBytes());
    }

    static Stream<Arguments> corruptions() {
        byte[] content = GzipEncoderTest.content(5_000, true, 5);
        byte[] zlib = zlib(content, false);
        int length = zlib.length;
        return Stream.of(
            // description, stream, expected reason
            Arguments.of("empty", new byte[0], "zlib content is empty"),
            Arguments.of("truncated header", Arrays.copyOf(zlib, 1), "zlib content truncated"),
            Arguments.of("truncated data", Arrays.copyOf(zlib, length / 2), "zlib content truncated"),
            Arguments.of("truncated checksum", Arrays.copyOf(zlib, length - 1), "zlib content truncated"),
            Arguments.of("Adler-32 wrong", GzipDecoderTest.withByte(zlib, length - 1, zlib[length - 1] ^ 0x10), "zlib content is corrupt: incorrect data check"),
            Arguments.of("raw deflate without the zlib header", zlib(content, true), "zlib content is corrupt"),
            Arguments.of("gzip instead", GzipDecoderTest.gzip(content), "zlib content is corrupt"),
            Arguments.of("bytes after the end", GzipDecoderTest.concat(zlib, new byte[] {1}), "bytes after the end of the zlib content"),
            Arguments.of("preset dictionary", new byte[] {0x78, (byte) 0xbb, 0, 0, 0, 1, 3, 0}, "needs a preset dictionary"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corruptions")
    void corruptContentFailsWith400(String description, byte[] stream, String reason) {
        ZlibDecoder decoder = new ZlibDecoder(pool);
        BadMessageException failure = assertThrows(BadMessageException.class, () -> GzipDecoderTest.decode(decoder, stream, 64, 1_000, false));
        assertEquals(400, failure.getStatus(), description);
        assertTrue(failure.getReason().contains(reason), failure.getReason());
        assertThrows(IllegalStateException.class, () -> decoder.decode(ByteBuffer.allocate(1), true, ByteBuffer.allocate(8)));
    }

    @Test
    void aBombFailsOneBytePastTheLimit() {
        byte[] bomb = zlib(new byte[5_000_000], false);
        ZlibDecoder decoder = new ZlibDecoder(pool, DecoderLimits.DEFAULT.withMaxInflatedBytes(1_000_000));
        BadMessageException failure = assertThrows(BadMessageException.class, () -> GzipDecoderTest.decode(decoder, bomb, 1_000, 65_536, true));
        assertEquals(413, failure.getStatus());
        assertEquals("inflated content larger than 1000000 bytes", failure.getReason());
        assertEquals(1_000_001, decoder.getInflatedBytes());
    }

    @Test
    void rejectsAGzipPool() {
        try (InflaterPool gzip = InflaterPool.forGzip()) {
            assertThrows(IllegalArgumentException.class, () -> new ZlibDecoder(gzip));
        }
    }

    @Test
    void theStreamMayEndBeforeTheLastEmptyChunk() {
        byte[] content = GzipEncoderTest.content(1_000, true, 1);
        ZlibDecoder decoder = new ZlibDecoder(pool);
        ByteBuffer output = ByteBuffer.allocate(2_000).limit(0);
        assertEquals(Progress.NEEDS_INPUT, decoder.decode(ByteBuffer.wrap(zlib(content, false)), false, output));
        assertEquals(0, pool.getInUseCount(), "the inflater goes back when the stream ends");
        assertEquals(Progress.FINISHED, decoder.decode(ByteBuffer.allocate(0), true, output));
        byte[] inflated = new byte[output.remaining()];
        output.get(inflated);
        assertArrayEquals(content, inflated);
    }
}
