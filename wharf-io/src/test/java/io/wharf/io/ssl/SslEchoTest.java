package io.wharf.io.ssl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.wharf.io.connect.ClientConnector;
import io.wharf.io.ClientTestConnection;
import io.wharf.io.Connection;
import io.wharf.io.EchoServer;
import io.wharf.io.EndPoint;
import io.wharf.io.ReplyCollector;
import io.wharf.testing.Deadline;
import io.wharf.testing.LeakTracking;
import io.wharf.util.Callback;
import io.wharf.util.Promise;
import io.wharf.util.buffer.ByteBuffers;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A Wharf TLS client against a Wharf TLS echo server over loopback: bytes come back intact. */
@Timeout(60)
class SslEchoTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @Test
    void smallMessageEchoes() throws Exception {
        try (EchoServer server = SslTesting.echoServer(leaks.pool(), tls -> { })) {
            ClientConnector client = SslTesting.client(leaks.pool());
            try {
                ReplyCollector reply = new ReplyCollector(11);
                Promise.Completable<Connection> opened = new Promise.Completable<>();
                client.connectTls(server.address(), endPoint -> new ClientTestConnection(endPoint, leaks.pool(), reply), opened);
                EndPoint endPoint = opened.get(10, TimeUnit.SECONDS).getEndPoint();
                assertTrue(endPoint.isSecure(), "the connection runs on the decrypted endpoint");
                Callback.Completable written = new Callback.Completable();
                endPoint.write(written, ByteBuffers.utf8("hello wharf"));
                written.get(10, TimeUnit.SECONDS);
                assertEquals("hello wharf", reply.text().get(10, TimeUnit.SECONDS));
                endPoint.close();
            } finally {
                client.stop();
            }
            Deadline.await(() -> server.group().getOpenEndPoints() == 0, Duration.ofSeconds(10));
        }
    }

    @Test
    void severalMebibytesBothWaysAtOnce() throws Exception {
        long total = 8L << 20;
        try (EchoServer server = SslTesting.echoServer(leaks.pool(), tls -> { })) {
            ClientConnector client = SslTesting.client(leaks.pool());
            try {
                CompletableFuture<Long> done = new CompletableFuture<>();
                Promise.Completable<Connection> opened = new Promise.Completable<>();
                client.connectTls(server.address(), endPoint -> new PatternClient(endPoint, leaks.pool(), total, 64 * 1024, done), opened);
                Connection connection = opened.get(10, TimeUnit.SECONDS);
                assertEquals(total, done.get(45, TimeUnit.SECONDS), "every byte came back in order");
                connection.getEndPoint().close();
            } finally {
                client.stop();
            }
            Deadline.await(() -> server.group().getOpenEndPoints() == 0, Duration.ofSeconds(10));
        }
    }

    @Test
    void manyConnectionsWithOneMessageEach() throws Exception {
        try (EchoServer server = SslTesting.echoServer(leaks.pool(), tls -> { })) {
            ClientConnector client = SslTesting.client(leaks.pool());
            try {
                for (int i = 0; i < 50; i++) {
                    String text = "message " + i;
                    ReplyCollector reply = new ReplyCollector(text.length());
                    Promise.Completable<Connection> opened = new Promise.Completable<>();
                    client.connectTls(server.address(), endPoint -> new ClientTestConnection(endPoint, leaks.pool(), reply), opened);
                    EndPoint endPoint = opened.get(10, TimeUnit.SECONDS).getEndPoint();
                    endPoint.write(Callback.NOOP, ByteBuffers.utf8(text));
                    assertEquals(text, new String(reply.text().get(10, TimeUnit.SECONDS).getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8));
                    endPoint.close();
                }
            } finally {
                client.stop();
            }
            Deadline.await(() -> server.group().getOpenEndPoints() == 0, Duration.ofSeconds(10));
        }
    }
}
