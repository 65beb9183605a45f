package io.wharf.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.wharf.loadgen.LoadGenerator;
import io.wharf.loadgen.LoadResult;

/**
 * The pieces of the WebSocket macro runs, in this JVM on loopback: the raw driver against both
 * echo servers, and the Jetty chat room under the load generator's chat scenario (as
 * {@link WebSocketChatMacroBenchmark} drives it), which checks that it speaks
 * {@code ChatRoom}'s protocol (every member hears its own join and every broadcast).
 */
class WebSocketBenchTest {

    private static final InetSocketAddress ANY = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    private static ServerProcess.Target echo(String server) throws Exception {
        return server.equals("wharf") ? WebSocketServers.wharfEcho(ANY) : WebSocketServers.jettyEcho(ANY);
    }

    @ParameterizedTest
    @ValueSource(strings = {"wharf", "jetty"})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void loadKeepsMessagesInFlightAndClosesCleanly(String server) throws Exception {
        try (ServerProcess.Target target = echo(server)) {
            InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), target.port());
            List<SocketChannel> channels = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                channels.add(WebSocketLoad.open(address, "/echo"));
            }
            WebSocketLoad.echoOnce(channels.get(0));
            long echoes;
            try (WebSocketLoad load = WebSocketLoad.start(channels, 8)) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (load.echoes() < 1000 && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
                load.stop();
                echoes = load.echoes();
            }
            assertTrue(echoes >= 1000, "echoes: " + echoes);
            for (SocketChannel channel : channels) {
                assertFalse(channel.isOpen());
            }
            awaitConnections(target, 0);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"wharf", "jetty"})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void idleSessionsCloseWithACloseFrame(String server) throws Exception {
        try (ServerProcess.Target target = echo(server)) {
            InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), target.port());
            List<SocketChannel> channels = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                SocketChannel channel = WebSocketLoad.open(address, "/echo");
                channels.add(channel);
                WebSocketLoad.echoOnce(channel);
            }
            awaitConnections(target, 3);
            WebSocketLoad.closeSessions(channels);
            awaitConnections(target, 0);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"wharf", "jetty"})
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void anUnmappedPathIsNoUpgrade(String server) throws Exception {
        try (ServerProcess.Target target = echo(server)) {
            InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), target.port());
            IOException refused = assertThrows(IOException.class, () -> WebSocketLoad.open(address, "/nowhere"));
            assertTrue(refused.getMessage().contains("404"), refused.getMessage());
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void jettyChatRoomSpeaksTheChatRoomProtocol() throws Exception {
        try (ServerProcess.Target room = JettyChatRoom.start(ANY)) {
            URI uri = URI.create("ws://127.0.0.1:" + room.port() + "/chat/ws");
            LoadResult result = WebSocketChatMacroBenchmark.load(uri, 5, 20, 4);
            assertEquals(0, result.errors(), () -> result.errorsByKind() + " " + result.errorExamples());
            assertEquals(100, result.resources().get(LoadGenerator.CHAT_DELIVERIES).requests());
            assertEquals(0, result.resources().get(LoadGenerator.CHAT_DELIVERIES).errors());
        }
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void jettyChatRoomRefusesABadName() throws Exception {
        try (ServerProcess.Target room = JettyChatRoom.start(ANY)) {
            InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), room.port());
            IOException refused = assertThrows(IOException.class, () -> WebSocketLoad.open(address, "/chat/ws?name=%3Cb%3E"));
            assertTrue(refused.getMessage().contains("400"), refused.getMessage());
            WebSocketLoad.open(address, "/chat/ws?name=Ann").close();
        }
    }

    @Test
    void scenariosAreParsedAndBadOnesRefused() {
        assertEquals(List.of(new WebSocketEchoMacroBenchmark.Scenario(64, 1), new WebSocketEchoMacroBenchmark.Scenario(512, 16)),
            WebSocketEchoMacroBenchmark.scenarios("64x1, 512x16"));
        for (String bad : List.of("64", "64x", "x1", "0x1", "64x0", "64x1x2", "ax1")) {
            assertThrows(IllegalArgumentException.class, () -> WebSocketEchoMacroBenchmark.scenarios(bad), bad);
        }
    }

    private static void awaitConnections(ServerProcess.Target target, int expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (target.connections() != expected && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertEquals(expected, target.connections());
    }
}
