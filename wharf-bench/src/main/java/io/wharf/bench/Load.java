package io.wharf.bench;

/**
 * A load generator as {@link LoadComparison} drives it: runs one scenario against one server
 * for some seconds, blocking until done, and says what it measured. It fails (throws) when the
 * server answered a request with an error status or a request failed outright, so that no
 * table is printed from a broken run. Called from the macro's driver thread; closing it
 * deletes what it kept on disk.
 */
interface Load extends AutoCloseable {

    /**
     * What one run measured: the responses received, the rate the tool reports, and the
     * connection errors it counted without failing ("" when none).
     */
    record Run(long requests, double requestsPerSecond, String errors) {
    }

    /** Opens a load generator (for example {@code Wrk::new}). */
    interface Opener {
        Load open() throws Exception;
    }

    Run run(ServerUnderTest server, LoadComparison.Scenario scenario, int seconds) throws Exception;

    @Override
    void close() throws Exception;
}
