package io.wharf.tests.servlet;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The readable report of a field the containers answered differently: one column per peer;
 * a body is split into lines and only the lines that differ are shown, with their numbers; a
 * value too long for a column is shown whole, a line per peer.
 * Characters outside printable ASCII show as {@code \xNN} (or {@code \r}, {@code \t}).
 */
final class SideBySide {

    private static final int WIDTH = 64;

    private SideBySide() {
    }

    /** @return the report of {@code field}, whose value differs between the peers of {@code values} */
    static String of(String field, Map<String, String> values) {
        List<String> peers = List.copyOf(values.keySet());
        List<List<String>> rows = new ArrayList<>();
        List<String> titles = new ArrayList<>();
        titles.add(field);
        titles.addAll(peers);
        rows.add(titles);
        if (field.equals("body")) {
            List<String[]> lines = peers.stream().map(peer -> values.get(peer).split("\n", -1)).toList();
            int most = lines.stream().mapToInt(body -> body.length).max().orElse(0);
            for (int i = 0; i < most; i++) {
                List<String> row = new ArrayList<>();
                row.add("line " + (i + 1));
                for (String[] body : lines) {
                    row.add(i < body.length ? visible(body[i]) : "(no line)");
                }
                if (row.stream().skip(1).distinct().count() > 1) {
                    rows.add(row);
                }
            }
        } else if (values.values().stream().anyMatch(value -> value.length() > WIDTH)) {
            StringBuilder text = new StringBuilder();
            values.forEach((peer, value) -> text.append("    ").append(peer).append(": ").append(visible(value)).append('\n'));
            return text.toString();
        } else {
            List<String> row = new ArrayList<>();
            row.add("");
            peers.forEach(peer -> row.add(visible(values.get(peer))));
            rows.add(row);
        }
        return table(rows);
    }

    private static String table(List<List<String>> rows) {
        int columns = rows.getFirst().size();
        int[] widths = new int[columns];
        for (List<String> row : rows) {
            for (int c = 0; c < columns; c++) {
                widths[c] = Math.min(WIDTH, Math.max(widths[c], row.get(c).length()));
            }
        }
        StringBuilder text = new StringBuilder();
        for (List<String> row : rows) {
            text.append("    ");
            for (int c = 0; c < columns; c++) {
                String cell = row.get(c);
                if (cell.length() > WIDTH) {
                    cell = cell.substring(0, WIDTH - 1) + "…";
                }
                text.append(c == 0 ? "" : " | ").append(cell).append(" ".repeat(widths[c] - cell.length()));
            }
            text.append('\n');
        }
        return text.toString();
    }

    private static String visible(String value) {
        StringBuilder text = new StringBuilder();
        for (char c : value.toCharArray()) {
            if (c == '\r') {
                text.append("\\r");
            } else if (c == '\t') {
                text.append("\\t");
            } else if (c < 0x20 || c > 0x7e) {
                text.append(String.format("\\x%02X", (int) c));
            } else {
                text.append(c);
            }
        }
        return text.toString();
    }
}
