package io.wharf.loadgen.internal;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import io.wharf.http.HttpFields;
import io.wharf.loadgen.LoadListener;
import io.wharf.loadgen.Model;
import io.wharf.loadgen.Protocol;
import io.wharf.loadgen.Resource;

/**
 * Everything a run is configured with, checked by {@link io.wharf.loadgen.LoadGenerator.Builder}
 * and read by the engine's parts. Immutable (the headers are a copy no one changes).
 *
 * @param target the base URI; resources resolve against it (a chat run: the room's ws or wss URI)
 * @param chat whether an iteration is a chat message ({@link ChatScenario}) rather than a resource tree
 * @param protocol the protocol
 * @param insecure whether to trust any server certificate
 * @param threads sending threads (open model)
 * @param usersPerThread users per sending thread; each user has its own connections
 * @param connectionsPerUser connections a user may open
 * @param resource the tree one iteration fetches
 * @param method the method of every request
 * @param headers added to every request
 * @param body the content of every request, or null
 * @param contentType the content's type
 * @param model the model
 * @param rate iterations per second (open model)
 * @param rampUp the time over which the rate grows from 0 to {@code rate}
 * @param warmupIterations iterations run first and not measured
 * @param iterations measured iterations, or 0 to run for {@code duration}
 * @param duration the measured part of the run when {@code iterations} is 0
 * @param thinkTime the pause of a closed-model user between iterations
 * @param requestTimeout the bound of each exchange
 * @param reportInterval the length of a reporting interval
 * @param behindThreshold the lateness beyond which a request counts as late
 * @param maxQueuedPerUser requests a user's connections may have waiting
 * @param probeRate requests per second of the probe, or 0 for none
 * @param intervalLog where to write the HdrHistogram interval log, or null
 * @param listeners told the run's events
 * @param window chat: the most messages on their way at once
 */
public record Settings(URI target, boolean chat, Protocol protocol, boolean insecure, int threads, int usersPerThread,
        int connectionsPerUser, Resource resource, String method, HttpFields headers, byte[] body, String contentType,
        Model model, double rate, Duration rampUp, long warmupIterations, long iterations, Duration duration,
        Duration thinkTime, Duration requestTimeout, Duration reportInterval, Duration behindThreshold,
        int maxQueuedPerUser, double probeRate, Path intervalLog, List<LoadListener> listeners, int window) {

    /** @return how many users the run has */
    public int users() {
        return threads * usersPerThread;
    }
}
