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
        try (EchoServer server = SslTesting.echoServer(leaks.pool(), tls -> { })) {
            EchoLoadTest.run(leaks.pool(), server.address(), connector -> connector.setSslContext(TestCertificates.clientContext()), true);
            Deadline.await(() -> server.group().getOpenEndPoints() == 0, Duration.ofSeconds(10));
        }
    }
}
