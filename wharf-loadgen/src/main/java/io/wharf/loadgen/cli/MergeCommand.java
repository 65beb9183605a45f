package io.wharf.loadgen.cli;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import io.wharf.loadgen.HtmlReport;
import io.wharf.loadgen.LoadResult;
import io.wharf.loadgen.internal.JsonSummary;
import io.wharf.loadgen.internal.LogMerge;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code ./wharf load merge [--json FILE] [--html FILE] LOGS...}: one summary and report from the
 * interval logs of several generator processes (see {@link LogMerge}). picocli fills the fields;
 * {@link #call()} runs on the main thread and prints on the parent command's streams.
 */
@Command(name = "merge", mixinStandardHelpOptions = true,
        description = "Merges the interval logs (--log) of several generator runs into one summary and report.")
final class MergeCommand implements Callable<Integer> {

    @ParentCommand
    LoadCommand parent;

    @Parameters(arity = "1..*", paramLabel = "LOG", description = "interval logs written by ./wharf load --log")
    List<Path> logs;

    @Option(names = "--json", paramLabel = "FILE", description = "write the merged JSON summary")
    Path json;

    @Option(names = "--html", paramLabel = "FILE", description = "write the merged HTML report")
    Path html;

    @Override
    public Integer call() throws Exception {
        LoadResult result = LogMerge.merge(logs);
        parent.out().print("merged " + logs.size() + " logs: " + TextSummary.of(result));
        if (json != null) {
            Files.writeString(json, JsonSummary.of(result), StandardCharsets.UTF_8);
            parent.out().println("JSON summary: " + json);
        }
        if (html != null) {
            HtmlReport.write(result, html);
            parent.out().println("HTML report: " + html);
        }
        return 0;
    }
}
