package io.wharf.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wharf.tests.LoopbackServer.Answer;

/**
 * What both framework applications ({@link SpringMvcTest}'s and {@link JerseyServletTest}'s) answer
 * alike: each serves an {@link io.wharf.tests.frameworks.Inventory} as JSON at an items URL, reads
 * new items as JSON and maps a missing item to a JSON 404. Called on the test's thread.
 */
final class ItemShopChecks {

    static final String ANCHOR = "{\"id\":1,\"name\":\"anchor\",\"price\":120}";
    static final String BOLLARD = "{\"id\":2,\"name\":\"bollard\",\"price\":80}";
    static final String CAPSTAN = "{\"id\":3,\"name\":\"capstan\",\"price\":300}";

    private ItemShopChecks() {
    }

    /** An item by its id in the path, and a search by the query's text and limit. */
    static void itemsAreJson(LoopbackServer server, String protocol, String items, String contentType) throws Exception {
        Answer item = server.fetch(protocol, items + "/2");
        assertEquals(200, item.status(), item.toString());
        assertEquals(contentType, item.field("content-type"));
        assertEquals(BOLLARD, item.body());
        Answer found = server.fetch(protocol, items + "?q=an&limit=2");
        assertEquals(200, found.status(), found.toString());
        assertEquals("[" + ANCHOR + "," + CAPSTAN + "]", found.body());
        assertEquals("[" + ANCHOR + "]", server.fetch(protocol, items + "?q=an&limit=1").body());
    }

    /**
     * A JSON item posted is created: 201 with the item and its absolute URI (built by the
     * framework from the request's scheme, host, port and paths), which answers it; text is 415
     * and broken JSON 400.
     */
    static void anItemIsCreated(LoopbackServer server, String protocol, String items) throws Exception {
        Answer created = server.post(protocol, items, "application/json", "{\"name\":\"winch\",\"price\":45}");
        assertEquals(201, created.status(), created.toString());
        String id = created.body().replaceAll("^\\{\"id\":(\\d+),.*", "$1");
        assertEquals("{\"id\":" + id + ",\"name\":\"winch\",\"price\":45}", created.body());
        assertEquals(items + "/" + id, created.field("location"));
        assertEquals(created.body(), server.curl(protocol, created.field("location")));
        assertEquals(415, server.post(protocol, items, "text/plain", "winch").status());
        assertEquals(400, server.post(protocol, items, "application/json", "{\"name\":").status());
    }

    /** A missing item is the application's JSON 404; DELETE is 405 with Allow. */
    static void errorsAreAnswered(LoopbackServer server, String protocol, String items) throws Exception {
        Answer missing = server.fetch(protocol, items + "/99");
        assertEquals(404, missing.status());
        assertEquals("{\"error\":\"no item 99\"}", missing.body());
        Answer wrongMethod = server.fetch(protocol, "-X", "DELETE", items + "/1");
        assertEquals(405, wrongMethod.status());
        assertTrue(wrongMethod.field("allow").contains("GET"), wrongMethod.toString());
    }
}
