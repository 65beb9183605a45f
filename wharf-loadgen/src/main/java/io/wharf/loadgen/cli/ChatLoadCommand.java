package io.wharf.loadgen.cli;

import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;

import io.wharf.loadgen.LoadGenerator;
import io.wharf.loadgen.LoadResult;
import io.wharf.loadgen.ResourceStatistics;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./wharf chat-load [options]}: loads a WebSocket chat room (the demo's, by default) with
 * {@link LoadGenerator#chat}: {@code --clients} members join, then messages go out at
 * {@code --rate} in total (open model) for {@code --duration} or {@code --messages}, each
 * measured to its last member's delivery; the same progress line, text summary, JSON summary,
 * HTML report and interval log as {@code ./wharf load}. picocli fills the fields; {@link #call()}
 * runs on the main thread. Exit status: 0 when every delivery arrived, 1 when some are missing
 * or the run could not be made (a room that cannot be reached), 2 for bad options.
 */
@Command(name = "wharf chat-load", mixinStandardHelpOptions = true, sortOptions = false, version = "wharf-loadgen 0.1",
        description = "Loads a WebSocket chat room: N members join, then messages are sent at a constant total rate (open model),"
            + " each measured from its intended send time to its delivery to the last member; exits with 1 if deliveries are missing.",
        footer = {"", "Durations are a number and a unit: 500ms, 20s, 2m, 1h. See docs/loadgen.md."})
public final class ChatLoadCommand implements Callable<Integer> {

    @Option(names = "--uri", paramLabel = "URI", description = "the room: ws://... or wss://...; default ${DEFAULT-VALUE}")
    URI uri = URI.create("ws://localhost:8080/chat/ws");

    @Option(names = "--clients", paramLabel = "N", description = "members of the room, each on its own connection; default ${DEFAULT-VALUE}")
    int clients = 1000;

    @Option(names = "--messages", paramLabel = "N", description = "send this many measured messages instead of running for --duration")
    long messages;

    @Option(names = "--window", paramLabel = "N",
            description = "the most messages on their way (not yet heard by every member) at once; default ${DEFAULT-VALUE}")
    int window = 64;

    @Option(names = "--timeout", paramLabel = "TIME", converter = DurationConverter.class,
            description = "bound of each message's deliveries, waiting for the window included, and of the joins (at least 15s);"
                + " default 10s")
    Duration timeout = Duration.ofSeconds(10);

    @Option(names = "--quiet", paramLabel = "SECONDS", description = "the older name of --timeout, in seconds")
    Long quiet;

    @CommandLine.Mixin
    RunOptions run = new RunOptions();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private final PrintStream out;
    private final PrintStream err;
    private final boolean terminal;

    /** The command on standard output and error, with a progress line when standard output is a terminal. */
    public ChatLoadCommand() {
        this(System.out, System.err, ProgressLine.stdoutIsTerminal());
    }

    ChatLoadCommand(PrintStream out, PrintStream err, boolean terminal) {
        this.out = out;
        this.err = err;
        this.terminal = terminal;
    }

    /** Runs {@code ./wharf chat-load} with {@code args} and exits with its status. */
    public static void main(String[] args) {
        System.exit(execute(new ChatLoadCommand(), args));
    }

    /** @return the exit status of {@code command} run with {@code args} */
    static int execute(ChatLoadCommand command, String... args) {
        return LoadCommand.execute("wharf chat-load", command, command.out, command.err, args);
    }

    @Override
    public Integer call() throws Exception {
        if (clients % run.threads != 0) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--clients (" + clients + ") must be a multiple of --threads (" + run.threads + ")");
        }
        Duration bound = quiet != null ? Duration.ofSeconds(quiet) : timeout;
        LoadGenerator.Builder builder = run.apply(LoadGenerator.chat(uri), spec)
                .usersPerThread(clients / run.threads)
                .window(window)
                .requestTimeout(bound);
        if (messages > 0) {
            builder.iterations(messages);
        }
        out.printf(Locale.ROOT, "chat-load: %d members, %.1f messages/s for %s to %s%n", clients, run.rate,
                messages > 0 ? messages + " messages" : run.duration.toMillis() / 1000.0 + " s", uri);
        ProgressLine progress = new ProgressLine(out, err, terminal, "msg");
        LoadResult result = builder.listener(progress).build().run();
        progress.end();
        run.report(result, out);
        ResourceStatistics deliveries = result.resources().get(LoadGenerator.CHAT_DELIVERIES);
        if (deliveries.errors() > 0) {
            out.printf(Locale.ROOT, "FAILED: %d of %d deliveries missing%n", deliveries.errors(), deliveries.requests());
            return 1;
        }
        return 0;
    }
}
