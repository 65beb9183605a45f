package io.wharf.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Reading h2load's summary: the numbers, and the runs that must not give a table. */
@Timeout(10)
class H2loadTest {

    /** h2load 1.52's summary of a timed h2 run, cut to the lines read (two streams were still open at the end). */
    private static final String SUMMARY = """
        TLS Protocol: TLSv1.3
        Cipher: TLS_AES_256_GCM_SHA384
        Server Temp Key: X25519 253 bits
        Application protocol: h2
        Main benchmark duration is over for thread #0. Stopping all clients.

        finished in 3.00s, 22239.00 req/s, 868.92KB/s
        requests: 66717 total, 67117 started, 66717 done, 66717 succeeded, 0 failed, 0 errored, 0 timeout
        status codes: 66719 2xx, 0 3xx, 0 4xx, 0 5xx
        traffic: 2.55MB (2669314) total, 586.80KB (600882) headers (space savings 90.21%), 846.99KB (867321) data
        """;

    @Test
    void readsTheSummary() {
        H2load.Result result = H2load.check(H2load.parse(SUMMARY), SUMMARY);
        assertEquals(22239.0, result.requestsPerSecond());
        assertEquals(66717, result.succeeded());
        assertEquals(0, result.notStatus2xx());
        assertEquals("h2", result.applicationProtocol());
        assertEquals("TLSv1.3 TLS_AES_256_GCM_SHA384", result.tls());
    }

    @Test
    void failedRequestsFailTheRun() {
        String output = SUMMARY.replace("66717 succeeded, 0 failed, 0 errored", "66369 succeeded, 348 failed, 348 errored");
        IllegalStateException failure = assertThrows(IllegalStateException.class, () -> H2load.check(H2load.parse(output), output));
        assertTrue(failure.getMessage().contains("348 failed"), failure.getMessage());
    }

    @Test
    void timeoutsFailTheRun() {
        String output = SUMMARY.replace("0 errored, 0 timeout", "0 errored, 3 timeout");
        assertThrows(IllegalStateException.class, () -> H2load.check(H2load.parse(output), output));
    }

    @Test
    void errorStatusesFailTheRun() {
        String output = SUMMARY.replace("0 3xx, 0 4xx, 0 5xx", "0 3xx, 66719 4xx, 0 5xx").replace("66719 2xx", "0 2xx");
        assertThrows(IllegalStateException.class, () -> H2load.check(H2load.parse(output), output));
    }

    @Test
    void noRequestsFailTheRun() {
        String output = SUMMARY.replace("66717 succeeded", "0 succeeded");
        assertThrows(IllegalStateException.class, () -> H2load.check(H2load.parse(output), output));
    }

    @Test
    void anOutputWithoutSummaryIsAnError() {
        IllegalStateException failure = assertThrows(IllegalStateException.class,
            () -> H2load.parse("starting benchmark...\nNo protocol negotiated. Aborted.\n"));
        assertTrue(failure.getMessage().contains("No protocol negotiated"), failure.getMessage());
    }

    @Test
    void aClearTextRunHasNoTls() {
        String output = SUMMARY.replace("TLS Protocol: TLSv1.3\nCipher: TLS_AES_256_GCM_SHA384\nServer Temp Key: X25519 253 bits\n", "")
            .replace("Application protocol: h2", "Application protocol: h2c");
        H2load.Result result = H2load.parse(output);
        assertEquals("h2c", result.applicationProtocol());
        assertEquals("", result.tls());
    }
}
