package io.wharf.server.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import io.wharf.server.LocalConnector;
import io.wharf.server.handler.ResourceServer.Reply;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class DefaultHandlerTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private ResourceServer local;

    @AfterEach
    void stop() throws Exception {
        if (local != null) {
            local.close();
        }
    }

    private ResourceServer start(DefaultHandler handler) throws Exception {
        local = new ResourceServer(leaks.pool()).start(handler);
        return local;
    }

    @Test
    void answersTheFaviconWithABuiltInIcon() throws Exception {
        start(new DefaultHandler());
        Reply reply = local.get("/favicon.ico");
        assertEquals(200, reply.status(), reply::toString);
        assertEquals("image/x-icon", reply.header("Content-Type"));
        byte[] icon = reply.bodyBytes();
        assertEquals(Integer.parseInt(reply.header("Content-Length")), icon.length);
        // ICONDIR: reserved 0, type 1, one image; the image data lies within the file.
        assertEquals(0, icon[0] | icon[1]);
        assertEquals(1, icon[2]);
        assertEquals(1, icon[4]);
        int size = (icon[14] & 0xFF) | (icon[15] & 0xFF) << 8;
        int offset = (icon[18] & 0xFF) | (icon[19] & 0xFF) << 8;
        assertEquals(icon.length, offset + size);
        // Twice: each response writes its own view of the shared bytes.
        assertEquals(icon.length, local.get("/favicon.ico").bodyBytes().length);
    }

    @Test
    void answersEverythingElseWith404() throws Exception {
        DefaultHandler handler = new DefaultHandler();
        start(handler);
        Reply missing = local.get("/nothing/here", "Accept: text/html");
        assertEquals(404, missing.status(), missing::toString);
        assertTrue(missing.body().contains("404"), missing::toString);
        Reply post = Reply.parse(local.connector.getResponse(ResourceServer.request("POST", "/favicon.ico", "Content-Length: 0")));
        assertEquals(404, post.status(), post::toString);
        handler.setServeFavicon(false);
        assertEquals(404, local.get("/favicon.ico").status());
    }

    @Test
    void answersHeadOfTheFaviconWithoutBody() throws Exception {
        start(new DefaultHandler());
        try (LocalConnector.Client client = local.connector.connect()) {
            client.send(ResourceServer.request("HEAD", "/favicon.ico"));
            Reply head = Reply.parse(client.readResponse(Duration.ofSeconds(10), true));
            assertEquals(200, head.status(), head::toString);
            assertEquals("", head.body());
            assertTrue(Integer.parseInt(head.header("Content-Length")) > 0);
        }
    }
}
