/**
 * Wharf's load generator on its {@code HttpClient}: {@code LoadGenerator} and its builder, the
 * open model (a constant rate whatever the server does, latencies measured from the intended
 * send time, corrected for coordinated omission, beside the uncorrected ones) and the closed
 * model, resource trees, listeners, HdrHistogram interval logs and the summaries.
 * {@code io.wharf.loadgen.internal} holds the engine and is not exported.
 */
module io.wharf.loadgen {
    requires transitive io.wharf.client;
    requires transitive HdrHistogram;

    exports io.wharf.loadgen;
}
