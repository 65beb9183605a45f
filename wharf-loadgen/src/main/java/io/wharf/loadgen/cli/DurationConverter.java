package io.wharf.loadgen.cli;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import picocli.CommandLine;

/** Reads a duration option: a number and a unit, {@code ms}, {@code s}, {@code m} or {@code h} ({@code 20s}, {@code 500ms}, {@code 1.5m}). */
final class DurationConverter implements CommandLine.ITypeConverter<Duration> {

    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)");

    @Override
    public Duration convert(String value) {
        Matcher matcher = DURATION.matcher(value.trim().toLowerCase(Locale.ROOT));
        if (!matcher.matches()) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a duration: write a number and ms, s, m or h, as in 20s");
        }
        double amount = Double.parseDouble(matcher.group(1));
        double millis = switch (matcher.group(2)) {
            case "ms" -> amount;
            case "s" -> amount * 1_000;
            case "m" -> amount * 60_000;
            default -> amount * 3_600_000;
        };
        return Duration.ofNanos(Math.round(millis * 1_000_000));
    }
}
