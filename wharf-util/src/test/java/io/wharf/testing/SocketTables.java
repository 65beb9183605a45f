package io.wharf.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Which of Linux's socket tables, {@code /proc/net/tcp} (IPv4 sockets) or
 * {@code /proc/net/tcp6} (IPv6 sockets, including those that carry IPv4), holds a TCP socket
 * of this machine: the one way to see a socket's address family from outside the JDK, which
 * reports an IPv4 address for both.
 */
public final class SocketTables {

    private static final Path IPV4 = Path.of("/proc/net/tcp");
    private static final Path IPV6 = Path.of("/proc/net/tcp6");

    private SocketTables() {
    }

    /** @return whether this machine has the tables (Linux) */
    public static boolean available() {
        return Files.isReadable(IPV4) && Files.isReadable(IPV6);
    }

    /**
     * @return the tables, "tcp" and/or "tcp6", holding a socket whose local port is
     *     {@code port} and whose remote port is {@code remotePort} (0 for a listening socket)
     */
    public static List<String> tablesOf(int port, int remotePort) throws IOException {
        List<String> tables = new ArrayList<>();
        if (holds(IPV4, port, remotePort)) {
            tables.add("tcp");
        }
        if (holds(IPV6, port, remotePort)) {
            tables.add("tcp6");
        }
        return tables;
    }

    private static boolean holds(Path table, int port, int remotePort) throws IOException {
        String local = String.format(Locale.ROOT, ":%04X", port);
        String remote = String.format(Locale.ROOT, ":%04X", remotePort);
        for (String line : Files.readAllLines(table)) {
            String[] columns = line.trim().split("\\s+");
            // sl, local_address, rem_address, ...: the addresses are HEXADDRESS:HEXPORT.
            if (columns.length > 2 && columns[1].endsWith(local) && columns[2].endsWith(remote)) {
                return true;
            }
        }
        return false;
    }
}
