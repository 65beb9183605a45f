package io.wharf.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

import io.wharf.examples.EchoServer;
import io.wharf.util.InvocationType;

/**
 * The server side of a macro run, in its own JVM so that its CPU time, allocation and heap
 * are its own. {@code ServerProcess wharf|jetty|wharf-http|jetty-http|wharf-static DIR|jetty-static DIR
 * |wharf-ws|jetty-ws|wharf-chat|jetty-chat|wharf-h2 DIR|jetty-h2 DIR|wharf-servlet [DIR]|wharf-servlet-vthread [DIR]
 * |jetty-servlet [DIR]|tomcat-servlet [DIR]|wharf-core|wharf-core-blocking|wharf-war WAR [CACHE]|jetty-war WAR
 * |tomcat-war WAR}:
 * starts that server on a free loopback port with one selector — the echo servers, the
 * hello-world HTTP/1.1 servers of {@link HelloServers}, the static-file servers of
 * {@link StaticServers} serving directory DIR, the WebSocket echo and chat servers of
 * {@link WebSocketServers}, the hello-world HTTP/2 servers of {@link Http2Servers} with the
 * certificate in DIR, or the servlet containers of {@link ServletServers} (their DefaultServlet
 * over DIR, when given) and Wharf's core handler doing the same (on the selector, or on a virtual
 * thread), or the containers of {@link DeployServers} deploying a WAR — prints {@code PORT n} (for the
 * HTTP/2 servers followed by their further ports, {@code PORT n H2C m H2 k}), then answers
 * commands on standard input:
 *
 * <ul>
 *   <li>{@code MARK}: remembers the process CPU time and the bytes allocated so far;</li>
 *   <li>{@code REPORT}: prints {@code CPU_NS c ALLOCATED_BYTES a} since the mark;</li>
 *   <li>{@code HEAP}: runs full GCs and prints {@code HEAP_USED h} (bytes);</li>
 *   <li>{@code CONNECTIONS}: prints {@code CONNECTIONS n} open on the server;</li>
 *   <li>{@code STARTED}: prints {@code MAIN_NANOS t CPU_NS c} ({@link System#nanoTime()} when
 *       {@code main} began, comparable with the driver's on Linux, where both read the same
 *       monotonic clock; the process's CPU time so far) followed by the server's {@link Target#phases()}.</li>
 * </ul>
 * End of input stops the server.
 */
public final class ServerProcess {

    private ServerProcess() {
    }

    /** The server under test, whichever it is, behind one face. */
    interface Target extends AutoCloseable {
        int port() throws Exception;

        int connections();

        /** @return how long the steps of its start took, as words and numbers ({@code start_ms 812.5 ...}), or nothing */
        default String phases() {
            return "";
        }

        /** @return the ports of its further connectors (h2c, TLS), when it has more than the HTTP/1.1 one */
        default java.util.Map<Protocol, Integer> otherPorts() throws Exception {
            return java.util.Map.of();
        }

        /** @return a target from what answers each question: its bound port, its open connections, and how it stops */
        static Target of(java.util.function.IntSupplier port, java.util.function.IntSupplier connections, AutoCloseable stop) {
            return new Target() {
                @Override
                public int port() {
                    return port.getAsInt();
                }

                @Override
                public int connections() {
                    return connections.getAsInt();
                }

                @Override
                public void close() throws Exception {
                    stop.close();
                }
            };
        }
    }

    public static void main(String[] args) throws Exception {
        long mainStarted = System.nanoTime();
        InetSocketAddress any = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try (Target echo = start(args, any)) {
            StringBuilder ports = new StringBuilder("PORT " + echo.port());
            echo.otherPorts().forEach((protocol, port) -> ports.append(' ').append(protocol).append(' ').append(port));
            System.out.println(ports);
            System.out.flush();
            com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            long cpuMark = 0;
            long allocatedMark = 0;
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line;
            while ((line = in.readLine()) != null) {
                switch (line.trim()) {
                    case "MARK" -> {
                        cpuMark = os.getProcessCpuTime();
                        allocatedMark = threads.getTotalThreadAllocatedBytes();
                        System.out.println("MARKED");
                    }
                    case "REPORT" -> System.out.println("CPU_NS " + (os.getProcessCpuTime() - cpuMark)
                        + " ALLOCATED_BYTES " + (threads.getTotalThreadAllocatedBytes() - allocatedMark));
                    case "HEAP" -> System.out.println("HEAP_USED " + heapAfterGc());
                    case "CONNECTIONS" -> System.out.println("CONNECTIONS " + echo.connections());
                    case "STARTED" -> System.out.println("MAIN_NANOS " + mainStarted + " CPU_NS " + os.getProcessCpuTime() + " " + echo.phases());
                    default -> System.out.println("UNKNOWN " + line);
                }
                System.out.flush();
            }
        }
    }

    private static long heapAfterGc() throws InterruptedException {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(100);
            used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
        }
        return used;
    }

    private static Target start(String[] args, InetSocketAddress any) throws Exception {
        String mode = args[0];
        return switch (mode) {
            case "wharf" -> wharf(any);
            case "jetty" -> JettyEcho.start(any);
            case "wharf-http" -> HelloServers.wharf(any);
            case "jetty-http" -> HelloServers.jetty(any);
            case "wharf-static" -> StaticServers.wharf(any, directory(args));
            case "jetty-static" -> StaticServers.jetty(any, directory(args));
            case "wharf-ws" -> WebSocketServers.wharfEcho(any);
            case "jetty-ws" -> WebSocketServers.jettyEcho(any);
            case "wharf-chat" -> WebSocketServers.wharfChat(any);
            case "jetty-chat" -> JettyChatRoom.start(any);
            case "wharf-h2" -> Http2Servers.wharf(any, directory(args));
            case "jetty-h2" -> Http2Servers.jetty(any, directory(args));
            case "wharf-servlet" -> ServletServers.wharf(any, optionalDirectory(args));
            case "wharf-servlet-vthread" -> ServletServers.wharf(any, optionalDirectory(args), true);
            case "jetty-servlet" -> ServletServers.jetty(any, optionalDirectory(args));
            case "tomcat-servlet" -> ServletServers.tomcat(any, optionalDirectory(args));
            case "wharf-core" -> ServletServers.wharfCore(any, InvocationType.NON_BLOCKING);
            case "wharf-core-blocking" -> ServletServers.wharfCore(any, InvocationType.BLOCKING);
            case "wharf-war" -> DeployServers.wharf(any, directory(args), args.length > 2 ? Path.of(args[2]) : null);
            case "jetty-war" -> DeployServers.jetty(any, directory(args));
            case "tomcat-war" -> DeployServers.tomcat(any, directory(args));
            default -> throw new IllegalArgumentException("unknown server '" + mode
                + "'; known: wharf, jetty, wharf-http, jetty-http, wharf-static DIR, jetty-static DIR, wharf-ws, jetty-ws,"
                + " wharf-chat, jetty-chat, wharf-h2 DIR, jetty-h2 DIR, wharf-servlet [DIR], wharf-servlet-vthread [DIR], jetty-servlet [DIR],"
                + " tomcat-servlet [DIR], wharf-core, wharf-core-blocking, wharf-war WAR [CACHE], jetty-war WAR, tomcat-war WAR");
        };
    }

    private static Path directory(String[] args) {
        if (args.length < 2) {
            throw new IllegalArgumentException(args[0] + " needs a path (the directory of the files to serve or of the bench certificate, or the WAR)");
        }
        return Path.of(args[1]);
    }

    /** @return the directory in the arguments, or null when none is given */
    private static Path optionalDirectory(String[] args) {
        return args.length < 2 ? null : Path.of(args[1]);
    }

    private static Target wharf(InetSocketAddress address) throws Exception {
        EchoServer server = new EchoServer(address, 1, Duration.ofHours(1));
        server.start();
        int port = server.boundAddress().getPort();
        return Target.of(() -> port, () -> server.group().getOpenEndPoints(), server::stop);
    }
}
