/**
 * Wharf's load generator on its {@code HttpClient}: {@code LoadGenerator} and its builder, the
 * open model (a constant rate whatever the server does, latencies measured from the intended
 * send time, corrected for coordinated omission, beside the uncorrected ones) and the closed
 * model, resource trees, the WebSocket chat room (on {@code io.wharf.websocket.client}), listeners,
 * HdrHistogram interval logs and the summaries.
 * {@code io.wharf.loadgen.internal} holds the engine and {@code io.wharf.loadgen.cli} the
 * {@code ./wharf load} command; neither is exported (the command's package is opened to
 * picocli, which fills its options by reflection).
 */
module io.wharf.loadgen {
    requires transitive io.wharf.client;
    requires io.wharf.websocket.client;
    requires transitive HdrHistogram;
    requires info.picocli;
    requires org.slf4j;
    requires org.knowm.xchart;
    requires java.desktop;

    exports io.wharf.loadgen;

    opens io.wharf.loadgen.cli to info.picocli;
}
