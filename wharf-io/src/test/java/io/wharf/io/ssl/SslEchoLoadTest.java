package io.wharf.io.ssl;

import java.time.Duration;

import io.wharf.io.EchoLoadTest;
import io.wharf.io.EchoServer;
import io.wharf.testing.Deadline;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The load test over TLS: 1,000 connections each send 1,000 messages of 185 bytes; every byte comes back in order. */
@Timeout(300)
class SslEchoLoadTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @Test
    void thousandConnectionsThousandMessagesOverTls() throws Exception {
        // Correctness under load, not timing: a connection starved for the default 30 s on a
        // loaded CI machine must not be closed as idle (CI saw a broken pipe at 36 s once).
        Duration patient = Duration.ofSeconds(180);
        try (EchoServer server = SslTesting.server(leaks.pool(), patient, tls -> { },
                endPoint -> new io.wharf.io.EchoConnection(endPoint, leaks.pool(), 4096))) {
            EchoLoadTest.run(leaks.pool(), server.address(), connector -> {
                connector.setSslContext(TestCertificates.clientContext());
                connector.setIdleTimeout(patient);
            }, true);
            Deadline.await(() -> server.group().getOpenEndPoints() == 0, Duration.ofSeconds(10));
        }
    }
}
