package io.wharf.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;

import io.wharf.examples.Demo;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The demo's chat in real headless Chromium: two tabs join the room at {@code /chat}, each
 * says something, and each sees both messages — over {@code ws://} from the http page and over
 * {@code wss://} from the https page. A message with markup shows as text, never as HTML. A
 * tab whose server went away says so and reconnects once it is back.
 */
@Timeout(120)
class ChromiumChatTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path directory;

    @RegisterExtension
    final TestDemo demos = new TestDemo();

    private Chromium chromium;

    @AfterEach
    void stop() throws Exception {
        if (chromium != null) {
            chromium.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"http", "https"})
    void twoTabsChat(String scheme) throws Exception {
        Demo.Running demo = demos.start(directory.resolve("demo-tls"));
        chromium = Chromium.start(directory.resolve("profile"));
        String page = scheme + "://localhost:" + (scheme.equals("http") ? demo.httpPort() : demo.httpsPort()) + "/chat";

        Chromium.Page ann = chromium.open(page);
        Chromium.Page bob = chromium.open(page);
        join(ann, "ann");
        ann.await("document.getElementById('status').textContent", "connected as ann"::equals, WAIT);
        join(bob, "bob");
        bob.await("document.getElementById('status').textContent", "connected as bob"::equals, WAIT);

        say(ann, "hello from ann <b>bold</b>");
        say(bob, "hello from bob");
        // The two tabs speak at once: the room may order their messages either way.
        String expected = "ann: hello from ann <b>bold</b>\nbob: hello from bob";
        String log = "[...document.querySelectorAll('#log .message')].map(li => li.textContent).sort().join('\\n')";
        try {
            ann.await(log, expected::equals, WAIT);
            bob.await(log, expected::equals, WAIT);
        } catch (AssertionError x) {
            throw new AssertionError(x.getMessage() + "\nann sees: " + seen(ann) + "\nbob sees: " + seen(bob), x);
        }
        assertEquals("0", ann.evaluate("document.querySelectorAll('#log b').length"), "markup shown as text");
        assertEquals(scheme.equals("http") ? "ws:" : "wss:", ann.evaluate("socket.url.substring(0, socket.url.indexOf('/'))"));
    }

    @Test
    void aTabReconnectsAfterTheServerCameBack() throws Exception {
        Demo.Running demo = demos.start(directory.resolve("demo-tls"));
        int port = demo.httpPort();
        chromium = Chromium.start(directory.resolve("profile"));
        Chromium.Page ann = chromium.open("http://localhost:" + port + "/chat");
        join(ann, "ann");
        ann.await("document.getElementById('status').textContent", "connected as ann"::equals, WAIT);

        demo.server().stop();
        String dropped = ann.await("document.getElementById('status').textContent", status -> status.contains("reconnecting"), WAIT);
        assertTrue(dropped.startsWith("closed (100"), dropped); // 1001 going away, or 1006 when the drop was abrupt
        demo = demos.start(port, directory.resolve("demo-tls"));
        ann.await("document.getElementById('status').textContent", "connected as ann"::equals, Duration.ofSeconds(40));
        say(ann, "back again");
        ann.await("[...document.querySelectorAll('#log .message')].map(li => li.textContent).join()", "ann: back again"::equals, WAIT);
    }

    /** @return the whole log and status line of a tab, to explain a failure */
    private static String seen(Chromium.Page page) throws Exception {
        return page.evaluate("document.getElementById('log').innerText + ' / ' + document.getElementById('status').textContent");
    }

    private static void join(Chromium.Page page, String name) throws Exception {
        // The tab shows about:blank (also "complete") until the page replaces it.
        page.await("location.pathname + ' ' + document.readyState", "/chat complete"::equals, WAIT);
        page.evaluate("(() => { document.getElementById('name').value = '" + name + "';"
                + " document.getElementById('join').requestSubmit(); return true; })()");
    }

    private static void say(Chromium.Page page, String text) throws Exception {
        page.evaluate("(() => { document.getElementById('text').value = '" + text + "';"
                + " document.getElementById('say').requestSubmit(); return true; })()");
    }
}
