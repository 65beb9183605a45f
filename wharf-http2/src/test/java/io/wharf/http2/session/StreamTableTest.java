package io.wharf.http2.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** The open-addressing stream table against a HashMap, through random opens and closes. */
class StreamTableTest {

    @Test
    void agreesWithAMapThroughRandomOpensAndCloses() {
        Random random = new Random(5);
        StreamTable table = new StreamTable();
        Map<Integer, Http2Stream> expected = new HashMap<>();
        int next = 1;
        for (int step = 0; step < 200_000; step++) {
            if (expected.isEmpty() || random.nextInt(100) < 52 && expected.size() < 3_000) {
                Http2Stream stream = new Http2Stream(null, next, 0, 0);
                table.put(stream);
                expected.put(next, stream);
                next += 2;
            } else {
                // Close one of the open streams, often an old one, as responses end out of order.
                int id = expected.keySet().iterator().next();
                if (random.nextBoolean()) {
                    id = 1 + 2 * random.nextInt((next - 1) / 2);
                }
                assertSame(expected.remove(id), table.remove(id), "remove " + id);
            }
            if (step % 997 == 0) {
                assertEquals(expected.size(), table.size());
                for (Map.Entry<Integer, Http2Stream> open : expected.entrySet()) {
                    assertSame(open.getValue(), table.get(open.getKey()));
                }
                assertEquals(new HashSet<>(expected.values()), new HashSet<>(table.values()));
                assertNull(table.get(next), "never opened");
            }
        }
        table.clear();
        assertTrue(table.isEmpty());
        assertNull(table.get(1));
    }
}
