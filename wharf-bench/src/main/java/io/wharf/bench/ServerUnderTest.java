package io.wharf.bench;

/**
 * A running server of a side-by-side macro run, whichever it is — a JVM in a {@link ServerChild}
 * or nginx in a {@link NginxChild} — behind one face: its port, and what it spent between a
 * {@link #mark()} and a {@link #usage()}. Called from the macro's driver thread; closing it
 * stops the server.
 */
interface ServerUnderTest extends AutoCloseable {

    /** What the server spent between a mark and a report: CPU time and (for a JVM) bytes allocated, else -1. */
    record Usage(long cpuNanos, long allocatedBytes) {
    }

    int port();

    /** @return the port of the connector speaking {@code protocol} (HTTP/1.1's is {@link #port()}) */
    int port(Protocol protocol);

    void mark() throws Exception;

    Usage usage() throws Exception;

    static ServerUnderTest of(ServerChild child) {
        return new ServerUnderTest() {
            @Override
            public int port() {
                return child.port();
            }

            @Override
            public int port(Protocol protocol) {
                return child.port(protocol);
            }

            @Override
            public void mark() throws Exception {
                child.command("MARK");
            }

            @Override
            public Usage usage() throws Exception {
                String report = child.command("REPORT");
                return new Usage(ServerChild.field(report, "CPU_NS"), ServerChild.field(report, "ALLOCATED_BYTES"));
            }

            @Override
            public void close() throws Exception {
                child.close();
            }
        };
    }

    static ServerUnderTest of(NginxChild nginx) {
        return new ServerUnderTest() {
            @Override
            public int port() {
                return nginx.port();
            }

            @Override
            public int port(Protocol protocol) {
                return nginx.port(protocol);
            }

            @Override
            public void mark() throws Exception {
                nginx.mark();
            }

            @Override
            public Usage usage() throws Exception {
                return new Usage(nginx.cpuSinceMark(), -1);
            }

            @Override
            public void close() throws Exception {
                nginx.close();
            }
        };
    }
}
