package io.wharf.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Test fixture: the real proxies the client tests go through, each a {@link PeerProcess} on a
 * free port of 127.0.0.1 with its configuration and log in the test's directory: tinyproxy as
 * the HTTP proxy (forwarding, CONNECT tunnels) and microsocks as the SOCKS5 proxy. Installed by
 * {@code scripts/install-peers}; a missing one fails in CI and skips elsewhere.
 */
public final class ProxyPeers {

    private ProxyPeers() {
    }

    /** A proxy running on a loopback port; closing it stops it. */
    public record Running(PeerProcess process, int port) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            process.close();
        }
    }

    /**
     * Starts tinyproxy allowing only loopback clients, with {@code lines} added to its
     * configuration (for example {@code BasicAuth ann secret} or {@code ConnectPort 8443}).
     */
    public static Running tinyproxy(Path directory, String name, String... lines) throws Exception {
        Path executable = PeerProcess.require("tinyproxy");
        int port = PeerProcess.freePort();
        Path config = directory.resolve(name + ".conf");
        Files.writeString(config, """
                Port %d
                Listen 127.0.0.1
                Timeout 30
                MaxClients 50
                LogLevel Connect
                PidFile "%s"
                Allow 127.0.0.1
                %s
                """.formatted(port, directory.resolve(name + ".pid"), String.join("\n", lines)));
        PeerProcess process = PeerProcess.start(name, directory, List.of(executable.toString(), "-d", "-c", config.toString()), port);
        return new Running(process, port);
    }

    /** Starts microsocks with {@code options} (for example {@code -u ann -P secret}). */
    public static Running microsocks(Path directory, String name, String... options) throws Exception {
        int port = PeerProcess.freePort();
        List<String> command = new ArrayList<>(List.of(PeerProcess.require("microsocks").toString(),
                "-i", "127.0.0.1", "-p", Integer.toString(port)));
        command.addAll(List.of(options));
        return new Running(PeerProcess.start(name, directory, command, port), port);
    }
}
