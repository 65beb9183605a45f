package io.wharf.http2.hpack;

import static io.wharf.http2.hpack.HpackRfcExamplesTest.render;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An encoder and a decoder on the two ends of one connection, fed thousands of random header
 * lists with churn in the dynamic table (repeated and new values, large values, changes of the
 * table size): every list comes back as sent, never-indexed fields stay never-indexed, and both
 * tables hold the same entries after every block.
 */
class HpackRoundTripTest {

    private static final String[] NAMES = {
        "accept", "accept-encoding", "accept-language", "cache-control", "content-type", "cookie", "user-agent",
        "authorization", "etag", "if-none-match", "x-request-id", "x-trace", "X-Mixed-Case", "referer", "date", "refresh",
    };
    private static final String[] VALUES = {
        "", "gzip, deflate", "text/html", "no-cache", "en-US,en;q=0.9", "1", "abc", "Mozilla/5.0 (X11; Linux x86_64)",
    };

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4})
    void randomListsRoundTripAndBothTablesStayInStep(long seed) {
        Random random = new Random(seed);
        HpackEncoder encoder = new HpackEncoder();
        HpackDecoder decoder = new HpackDecoder(4096, 1 << 20);
        for (int block = 0; block < 2_000; block++) {
            if (random.nextInt(50) == 0) {
                int capacity = random.nextInt(5) == 0 ? 0 : random.nextInt(4097);
                decoder.setMaxTableCapacity(capacity);
                encoder.setPeerMaxTableCapacity(capacity);
            }
            IndexingPolicy policy = random.nextBoolean() ? IndexingPolicy.DEFAULT : IndexingPolicy.INDEX_ALL;
            encoder.setIndexingPolicy(policy);
            encoder.setHuffman(random.nextInt(4) != 0);
            HttpFields fields = randomList(random);

            ByteBuffer encoded = ByteBuffer.allocate(encoder.maxEncodedLength(fields));
            encoder.encode(fields, encoded);
            encoded.flip();
            if (random.nextBoolean()) {
                encoded = ByteBuffer.allocateDirect(encoded.remaining()).put(encoded).flip();
            }
            HeaderBlock decoded = decoder.decode(encoded);

            assertFalse(decoded.tooLarge());
            List<HttpField> received = new ArrayList<>();
            decoded.pseudoHeaders().forEach(received::add);
            decoded.fields().forEach(received::add);
            assertEquals(fields.size(), received.size(), "block " + block);
            for (int i = 0; i < fields.size(); i++) {
                HttpField sent = fields.getField(i);
                HttpField got = received.get(i);
                assertEquals(sent.getName().toLowerCase(Locale.ROOT), got.getName(), "block " + block);
                assertEquals(sent.getValue(), got.getValue(), "block " + block);
                assertEquals(sent.getHeader(), got.getHeader(), "block " + block);
                if (sent instanceof NeverIndexedHttpField) {
                    assertInstanceOf(NeverIndexedHttpField.class, got, "block " + block);
                } else if (got instanceof NeverIndexedHttpField) {
                    assertEquals(IndexingPolicy.Indexing.NEVER_INDEX, policy.indexing(sent), "block " + block);
                }
            }
            assertEquals(render(encoder.table()), render(decoder.table()), "block " + block);
            assertEquals(encoder.getTableSize(), decoder.getTableSize());
            assertEquals(encoder.getTableCapacity(), decoder.getTableCapacity());
        }
    }

    private static HttpFields randomList(Random random) {
        HttpFields.Mutable fields = HttpFields.build();
        if (random.nextBoolean()) {
            fields.add(new HttpField(HttpHeader.C_METHOD, ":method", random.nextBoolean() ? "GET" : "PATCH"));
            fields.add(new HttpField(HttpHeader.C_PATH, ":path", "/item/" + random.nextInt(20) + (random.nextBoolean() ? "?q=1" : "")));
        } else {
            fields.add(new HttpField(HttpHeader.C_STATUS, ":status", String.valueOf(200 + random.nextInt(10))));
        }
        for (int i = random.nextInt(12); i > 0; i--) {
            String name = random.nextInt(6) == 0 ? "x-custom-" + random.nextInt(30) : NAMES[random.nextInt(NAMES.length)];
            String value = switch (random.nextInt(5)) {
                case 0 -> randomValue(random, 1 + random.nextInt(40));
                case 1 -> randomValue(random, 500 + random.nextInt(3000));
                default -> VALUES[random.nextInt(VALUES.length)];
            };
            fields.add(random.nextInt(10) == 0 ? new NeverIndexedHttpField(name, value) : new HttpField(name, value));
        }
        return fields;
    }

    /** Any octet an HTTP/2 value may hold: visible ASCII, space and tab inside, obs-text. */
    private static String randomValue(Random random, int length) {
        char[] value = new char[length];
        for (int i = 0; i < length; i++) {
            int c = random.nextInt(0x21, 0x100);
            value[i] = c == 0x7F ? '~' : (char) c;
            if (i > 0 && i < length - 1 && random.nextInt(20) == 0) {
                value[i] = random.nextBoolean() ? ' ' : '\t';
            }
        }
        return new String(value);
    }
}
