package io.wharf.loadgen.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import io.wharf.loadgen.HtmlReport;
import io.wharf.loadgen.LoadGenerator;
import io.wharf.loadgen.LoadResult;
import io.wharf.loadgen.Model;
import io.wharf.loadgen.Protocol;
import io.wharf.loadgen.internal.JsonSummary;

import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The options {@code ./wharf load} and {@code ./wharf chat-load} share — the schedule, the model,
 * the protocol, the reporting and the output files — as a picocli mixin: {@link #apply} sets
 * them on a builder, {@link #report} prints the summary and writes the files. picocli fills the
 * fields; used on the main thread.
 */
final class RunOptions {

    @Option(names = "--rate", paramLabel = "N", description = "iterations per second (requests, for a single resource; messages, for"
            + " chat-load), open model; default 100")
    double rate = 100;

    @Option(names = "--duration", paramLabel = "TIME", converter = DurationConverter.class,
            description = "how long the measured part runs; default 10s")
    Duration duration = Duration.ofSeconds(10);

    @Option(names = "--warmup", paramLabel = "N", description = "iterations run first and left out of the results; default ${DEFAULT-VALUE}")
    long warmup;

    @Option(names = "--ramp-up", paramLabel = "TIME", converter = DurationConverter.class,
            description = "grow the rate linearly from 0 over this time; default none")
    Duration rampUp = Duration.ZERO;

    @Option(names = "--model", paramLabel = "open|closed", description = "open (a constant rate) or closed (users back to back); default open")
    String model = "open";

    @Option(names = "--think-time", paramLabel = "TIME", converter = DurationConverter.class,
            description = "closed model: a user's pause between iterations; default none")
    Duration thinkTime = Duration.ZERO;

    @Option(names = "--threads", paramLabel = "N", description = "sending threads; default ${DEFAULT-VALUE}")
    int threads = 1;

    @Option(names = "--protocol", paramLabel = "P", description = "http/1.1, h2c (HTTP/2 over http or ws) or h2 (HTTP/2 over https or wss);"
            + " default http/1.1")
    String protocol = "http/1.1";

    @Option(names = "--insecure", description = "trust any server certificate (self-signed test servers only)")
    boolean insecure;

    @Option(names = "--behind-threshold", paramLabel = "TIME", converter = DurationConverter.class,
            description = "how late a request may get its connection before the generator reports itself behind; default 10ms")
    Duration behindThreshold = Duration.ofMillis(10);

    @Option(names = "--report-interval", paramLabel = "TIME", converter = DurationConverter.class,
            description = "length of a progress and interval-log interval; default 1s")
    Duration reportInterval = Duration.ofSeconds(1);

    @Option(names = "--log", paramLabel = "FILE", description = "write the HdrHistogram interval log (µs, tagged corrected, uncorrected, trees, probe,"
            + " resource:NAME, a chat run's parts being resource:messages and resource:deliveries; errors on comment lines)")
    Path log;

    @Option(names = "--json", paramLabel = "FILE", description = "write the JSON summary")
    Path json;

    @Option(names = "--html", paramLabel = "FILE", description = "write the HTML report with its charts (one self-contained file)")
    Path html;

    /** Sets these options on {@code builder}; a bad {@code --model} is a parameter error of {@code spec}'s command. */
    LoadGenerator.Builder apply(LoadGenerator.Builder builder, CommandLine.Model.CommandSpec spec) {
        builder.protocol(Protocol.of(protocol))
                .insecure(insecure)
                .model(switch (model) {
                    case "open" -> Model.OPEN;
                    case "closed" -> Model.CLOSED;
                    default -> throw new CommandLine.ParameterException(spec.commandLine(),
                            "--model must be open or closed, not '" + model + "'");
                })
                .rate(rate)
                .rampUp(rampUp)
                .duration(duration)
                .warmupIterations(warmup)
                .thinkTime(thinkTime)
                .threads(threads)
                .behindThreshold(behindThreshold)
                .reportInterval(reportInterval);
        if (log != null) {
            builder.intervalLog(log);
        }
        return builder;
    }

    /** Prints the text summary of {@code result} on {@code out}, and writes the JSON summary and HTML report asked for. */
    void report(LoadResult result, PrintStream out) throws IOException {
        // The summary carries the behind-schedule warning; each late interval was told on the error stream.
        out.print(TextSummary.of(result));
        if (json != null) {
            Files.writeString(json, JsonSummary.of(result), StandardCharsets.UTF_8);
            out.println("JSON summary: " + json);
        }
        if (html != null) {
            HtmlReport.write(result, html);
            out.println("HTML report: " + html);
        }
        if (log != null) {
            out.println("interval log: " + log);
        }
    }
}
