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

/**
 * The demo's servlet section in headless Chromium over h2 with TLS: the account page is behind
 * FORM login, so the browser is shown the login form at the account's address; it types the
 * user and password and submits, follows the redirect, and lands on the account page with the
 * session cookie that FORM login changed; a JSP page then answers in the same session.
 */
@Timeout(120)
class ChromiumServletLoginTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

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

    @Test
    void aBrowserLogsInThroughTheFormAndReachesTheAccount() throws Exception {
        Path certificates = directory.resolve("demo-tls");
        Demo.Running demo = demos.start(certificates);
        chromium = Chromium.trusting(directory.resolve("profile"), certificates.resolve("demo.pem"));
        String account = "https://localhost:" + demo.httpsPort() + "/servlet/account";
        Chromium.Page page = chromium.open(account);
        page.await("document.readyState + ' ' + document.title", "complete Log in"::equals, WAIT);
        assertEquals(account, page.evaluate("location.href"), "the login form is shown at the address asked for");
        assertEquals("h2", page.evaluate("performance.getEntriesByType('navigation')[0].nextHopProtocol"));
        page.evaluate("(() => { document.querySelector('[name=j_username]').value = 'demo';"
            + " document.querySelector('[name=j_password]').value = 'demo'; document.querySelector('form').submit(); return 1; })()");
        String landed = page.await("document.readyState + ' ' + document.title + ' ' + location.pathname",
            text -> text.equals("complete Your account /servlet/account"), WAIT);
        assertEquals("complete Your account /servlet/account", landed);
        assertTrue(page.evaluate("document.body.innerText").contains("Logged in as demo by FORM"));
        chromium.open("https://localhost:" + demo.httpsPort() + "/servlet/clock.jsp")
            .await("document.title", "A JSP page"::equals, WAIT);
    }
}
