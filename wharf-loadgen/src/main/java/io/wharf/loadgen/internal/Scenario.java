package io.wharf.loadgen.internal;

import java.util.List;
import java.util.concurrent.Executor;

/**
 * What one iteration of a run is — the engine's SPI. The engine ({@link LoadRun} with
 * {@link OpenLoop} or {@link ClosedLoop}) keeps the schedule, both latencies, the
 * behind-schedule detection, the warm-up, the listeners, the intervals and the reports; a
 * scenario only does the work: it gets its users ready, starts each {@link Iteration} it is
 * handed on that iteration's user, and reports through it how its exchanges went and when it
 * ended. Two exist: {@link TreeScenario} (an HTTP resource-tree fetch) and {@link ChatScenario}
 * (one message broadcast to a WebSocket chat room).
 *
 * <p><b>Threads.</b> {@link #open()} and {@link #close()} run on the running thread, before the
 * schedule starts and after the requests in flight were drained; {@link #start} runs on a sending
 * thread (open model) or a client thread (closed model), concurrently, and must not block.
 */
interface Scenario {

    /** @return the parts of an iteration whose statistics the run keeps, in the order the reports list them */
    List<String> parts();

    /**
     * Gets the users ready (starts clients; the chat's members join the room).
     *
     * @throws IllegalStateException naming what could not be made ready; the run then does not start
     */
    void open() throws InterruptedException;

    /** @return where the closed model starts a user's next iteration, once {@link #open()} returned (the client's threads) */
    Executor executor();

    /** Starts {@code iteration} on its user, and returns without waiting for it. */
    void start(Iteration iteration);

    /** Ends what the scenario holds (its clients, the chat's members): what is still in flight fails. */
    void close() throws InterruptedException;
}
