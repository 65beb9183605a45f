package io.wharf.http2.hpack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Fuzz target for the HPACK decoder (docs/fuzzing.md). An input is the header blocks one peer
 * sends on a connection, each preceded by one octet that gives its length, decoded one after
 * another by one decoder (so the dynamic table carries over), until the input ends or a block
 * is a COMPRESSION_ERROR. What each input must keep:
 * <ul>
 * <li>only {@link HpackException} escapes {@code decode}, and after it the connection is over;</li>
 * <li>bounded: a kept list is no larger than {@code maxHeaderListSize}, the table no larger than
 *     its capacity, the capacity no larger than our setting;</li>
 * <li>round trip: every well-formed list decoded, encoded again by an {@link HpackEncoder} and
 *     decoded by a second decoder, comes back the same, and the two tables of that second pair
 *     stay in step.</li>
 * </ul>
 * The decoder reads the caller's buffer and takes no pool: there is no pooled buffer to leak.
 * Seeds: {@code src/test/resources/io/wharf/http2/hpack/HpackDecoderFuzzTestInputs/blocks/}.
 */
class HpackDecoderFuzzTest {

    private static final int TABLE_CAPACITY = 4096;
    private static final int MAX_LIST_SIZE = 2048;

    @FuzzTest
    void blocks(byte[] input) {
        HpackDecoder decoder = new HpackDecoder(TABLE_CAPACITY, MAX_LIST_SIZE);
        HpackEncoder encoder = new HpackEncoder();
        HpackDecoder again = new HpackDecoder(TABLE_CAPACITY, Integer.MAX_VALUE);
        int at = 0;
        while (at < input.length) {
            int length = Math.min(input[at] & 0xFF, input.length - at - 1);
            ByteBuffer block = ByteBuffer.wrap(input, at + 1, length).slice();
            at += 1 + length;
            HeaderBlock decoded;
            try {
                decoded = decoder.decode(block);
            } catch (HpackException compressionError) {
                return;
            }
            assertEquals(block.limit(), block.position(), "the block was not read to its end");
            assertTrue(decoder.getTableSize() <= decoder.getTableCapacity(), decoder::toString);
            assertTrue(decoder.getTableCapacity() <= decoder.getMaxTableCapacity(), decoder::toString);
            if (decoded.tooLarge()) {
                assertTrue(decoded.size() > MAX_LIST_SIZE, "a block marked too large is not: " + decoded.size());
                continue;
            }
            assertTrue(decoded.size() <= MAX_LIST_SIZE, "kept a list of " + decoded.size() + " octets");
            assertEquals(decoded.size(), listSize(decoded.pseudoHeaders()) + listSize(decoded.fields()), "the list size is miscounted");
            if (decoded.problem() == null) {
                roundTrip(decoded, encoder, again);
            }
        }
    }

    /** Encodes {@code decoded}'s fields and decodes them with the second decoder: the same fields must come back. */
    private static void roundTrip(HeaderBlock decoded, HpackEncoder encoder, HpackDecoder again) {
        HttpFields all = HttpFields.build().add(decoded.pseudoHeaders()).add(decoded.fields());
        ByteBuffer encoded = ByteBuffer.allocate(encoder.maxEncodedLength(all));
        encoder.encode(all, encoded);
        HeaderBlock back = again.decode(encoded.flip());
        assertEquals(text(decoded.pseudoHeaders()), text(back.pseudoHeaders()));
        assertEquals(text(decoded.fields()), text(back.fields()));
        assertEquals(null, back.problem());
        assertEquals(encoder.getTableSize(), again.getTableSize(), "the encoder's and decoder's tables differ");
    }

    private static long listSize(HttpFields fields) {
        long size = 0;
        for (HttpField field : fields) {
            size += field.getName().length() + field.getValue().length() + 32;
        }
        return size;
    }

    private static List<String> text(HttpFields fields) {
        List<String> text = new ArrayList<>();
        fields.forEach(field -> text.add(field.getName() + ": " + field.getValue()));
        return text;
    }
}
