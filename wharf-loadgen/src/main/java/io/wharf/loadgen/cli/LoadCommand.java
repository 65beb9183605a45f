package io.wharf.loadgen.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import io.wharf.loadgen.LoadGenerator;
import io.wharf.loadgen.LoadResult;
import io.wharf.loadgen.Resource;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ./wharf load [options] URL}: one {@link LoadGenerator} run from the command line, with a
 * progress line on a terminal, a text summary at the end, and on request the JSON summary, the
 * HTML report and the HdrHistogram interval log. picocli fills the fields; {@link #call()} runs on the main thread.
 * Exit status: 0 after a run (whatever its errors: they are in the summary), 1 when it could not
 * run, 2 for bad options.
 */
@Command(name = "wharf load", mixinStandardHelpOptions = true, sortOptions = false, version = "wharf-loadgen 0.1",
        subcommands = MergeCommand.class,
        description = "Loads URL at a constant rate (open model) or with users back to back (closed model), and reports"
            + " latencies corrected for coordinated omission next to the uncorrected ones.",
        footer = {"", "Durations are a number and a unit: 500ms, 20s, 2m, 1h. See docs/loadgen.md."})
public final class LoadCommand implements Callable<Integer> {

    @Parameters(index = "0", arity = "0..1", paramLabel = "URL", description = "the target: http://... or https://...")
    URI target;

    @CommandLine.Mixin
    RunOptions run = new RunOptions();

    @Option(names = "--iterations", paramLabel = "N", description = "run this many measured iterations instead of a duration")
    long iterations;

    @Option(names = "--connections", paramLabel = "N", description = "connections per user; default ${DEFAULT-VALUE}")
    int connections = 1;

    @Option(names = "--users", paramLabel = "N", description = "users per thread, each with its own connections; default ${DEFAULT-VALUE}")
    int users = 1;

    @Option(names = "--method", paramLabel = "M", description = "the method of each request but a HAR entry's (which has its own); default ${DEFAULT-VALUE}")
    String method = "GET";

    @Option(names = {"-H", "--header"}, paramLabel = "'Name: value'", description = "a header field of every request (repeatable)")
    List<String> headers = new ArrayList<>();

    @Option(names = "--body", paramLabel = "TEXT", description = "the content of each request but a HAR entry's")
    String body;

    @Option(names = "--body-file", paramLabel = "FILE", description = "the content of each request but a HAR entry's, read from FILE")
    Path bodyFile;

    @Option(names = "--content-type", paramLabel = "TYPE", description = "the content's type; default ${DEFAULT-VALUE}")
    String contentType = "application/octet-stream";

    @Option(names = "--resources", paramLabel = "FILE",
            description = "fetch the resource tree in FILE (JSON, or a HAR file a browser saved) as one iteration")
    Path resources;

    @Option(names = "--probe-rate", paramLabel = "N",
            description = "also probe the root at N requests/s on a connection of its own; default none")
    double probeRate;

    @Option(names = "--timeout", paramLabel = "TIME", converter = DurationConverter.class,
            description = "bound of each exchange, queueing included; default 30s")
    Duration timeout = Duration.ofSeconds(30);

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private final PrintStream out;
    private final PrintStream err;
    private final boolean terminal;

    /** The command on standard output and error, with a progress line when standard output is a terminal. */
    public LoadCommand() {
        this(System.out, System.err, ProgressLine.stdoutIsTerminal());
    }

    LoadCommand(PrintStream out, PrintStream err, boolean terminal) {
        this.out = out;
        this.err = err;
        this.terminal = terminal;
    }

    /** Runs {@code ./wharf load} with {@code args} and exits with its status. */
    public static void main(String[] args) {
        System.exit(execute(new LoadCommand(), args));
    }

    /** @return the exit status of {@code command} run with {@code args} */
    static int execute(LoadCommand command, String... args) {
        return execute("wharf load", command, command.out, command.err, args);
    }

    /** @return the exit status of {@code command} (named {@code name} in its errors) run with {@code args} */
    static int execute(String name, Object command, PrintStream out, PrintStream err, String... args) {
        CommandLine line = new CommandLine(command);
        line.setOut(new java.io.PrintWriter(out, true, StandardCharsets.UTF_8));
        line.setErr(new java.io.PrintWriter(err, true, StandardCharsets.UTF_8));
        line.setExecutionExceptionHandler((failure, commandLine, parsed) -> {
            commandLine.getErr().println(name + ": " + (failure.getMessage() == null ? failure : failure.getMessage()));
            return 1;
        });
        return line.execute(args);
    }

    /** @return where the summaries go */
    PrintStream out() {
        return out;
    }

    @Override
    public Integer call() throws Exception {
        if (target == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "Missing required parameter: 'URL'");
        }
        ProgressLine progress = new ProgressLine(out, err, terminal);
        LoadGenerator generator = builder().listener(progress).build();
        LoadResult result = generator.run();
        progress.end();
        run.report(result, out);
        return 0;
    }

    private LoadGenerator.Builder builder() throws IOException {
        LoadGenerator.Builder builder = run.apply(LoadGenerator.builder(target), spec)
                .usersPerThread(users)
                .connectionsPerUser(connections)
                .method(method)
                .requestTimeout(timeout);
        if (iterations > 0) {
            builder.iterations(iterations);
        }
        for (String header : headers) {
            int colon = header.indexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException("--header must be 'Name: value', not '" + header + "'");
            }
            builder.header(header.substring(0, colon).trim(), header.substring(colon + 1).trim());
        }
        if (body != null && bodyFile != null) {
            throw new IllegalArgumentException("give --body or --body-file, not both");
        }
        if (body != null) {
            builder.body(body, contentType);
        } else if (bodyFile != null) {
            builder.body(Files.readAllBytes(bodyFile), contentType);
        }
        if (probeRate != 0) {
            builder.probe(probeRate);
        }
        if (resources != null) {
            builder.resource(Resource.read(resources));
        }
        return builder;
    }
}
