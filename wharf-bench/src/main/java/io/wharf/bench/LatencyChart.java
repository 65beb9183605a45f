package io.wharf.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The chart of the {@code latency} run: each server's corrected p99 (solid) and p99.9 (dashed)
 * against the fraction of its maximum, on a logarithmic latency axis, drawn with XChart (the
 * library of the load generator's HTML report) as a PNG file (an SVG of it is half a megabyte). Called once per path on the
 * driver thread at the end of the run; AWT runs headless.
 */
final class LatencyChart {

    /** One color per server, in the order of the servers: a server's two lines share it. */
    private static final java.awt.Color[] COLORS = {new java.awt.Color(0x1f77b4), new java.awt.Color(0xff7f0e), new java.awt.Color(0x2ca02c)};

    private LatencyChart() {
    }

    static void write(List<LatencyMacroBenchmark.Point> points, List<String> servers, String path, Path file) throws IOException {
        System.setProperty("java.awt.headless", "true");
        XYChart chart = new XYChartBuilder().width(900).height(480)
            .title("Corrected latency at fixed rates, " + path + " (solid p99, dashed p99.9)")
            .xAxisTitle("rate, % of the maximum the generator reached against the server").yAxisTitle("latency (ms)").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        chart.getStyler().setYAxisLogarithmic(true);
        for (int i = 0; i < servers.size(); i++) {
            String server = servers.get(i);
            java.awt.Color color = COLORS[i % COLORS.length];
            List<LatencyMacroBenchmark.Point> mine = points.stream().filter(p -> p.server().equals(server)).toList();
            if (mine.isEmpty()) {
                continue;
            }
            double[] x = mine.stream().mapToDouble(p -> 100 * p.fraction()).toArray();
            XYSeries p99 = chart.addSeries(server + " p99", x, mine.stream().mapToDouble(p -> p.result().correctedMicros(99) / 1000.0).toArray());
            XYSeries p999 = chart.addSeries(server + " p99.9", x,
                mine.stream().mapToDouble(p -> p.result().correctedMicros(99.9) / 1000.0).toArray());
            p999.setLineStyle(SeriesLines.DASH_DASH);
            for (XYSeries series : List.of(p99, p999)) {
                series.setLineColor(color);
                series.setMarkerColor(color);
                series.setMarker(SeriesMarkers.CIRCLE);
            }
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
