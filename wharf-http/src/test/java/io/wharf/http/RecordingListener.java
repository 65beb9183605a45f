package io.wharf.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A parser listener for tests: records every call as a line of text, joining consecutive
 * content pieces into one {@code content <text>} event (so a message split anywhere records
 * the same events), and keeps the field instances it was given. It can be told to stop the
 * parse after the header.
 */
class RecordingListener implements HttpParserListener.Request, HttpParserListener.Response {

    final List<String> events = new ArrayList<>();
    final List<HttpField> fields = new ArrayList<>();
    final List<BadMessageException> failures = new ArrayList<>();
    boolean stopAtHeader;
    boolean stopAtContent;
    private StringBuilder content;

    @Override
    public void startRequest(String method, String target, HttpVersion version) {
        add("request " + method + " " + target + " " + version);
    }

    @Override
    public void startResponse(HttpVersion version, int status, String reason) {
        add("response " + version + " " + status + " " + reason);
    }

    @Override
    public void parsedHeader(HttpField field) {
        fields.add(field);
        add("header " + field.getName() + ": " + field.getValue());
    }

    @Override
    public boolean headerComplete() {
        add("headerComplete");
        return stopAtHeader;
    }

    @Override
    public boolean content(ByteBuffer piece) {
        if (!piece.hasRemaining()) {
            throw new AssertionError("empty content piece");
        }
        byte[] bytes = new byte[piece.remaining()];
        piece.get(bytes);
        if (content == null) {
            content = new StringBuilder();
            events.add(null);
        }
        content.append(new String(bytes, StandardCharsets.ISO_8859_1));
        events.set(events.size() - 1, "content " + content);
        return stopAtContent;
    }

    @Override
    public boolean contentComplete() {
        add("contentComplete");
        return false;
    }

    @Override
    public void parsedTrailer(HttpField field) {
        add("trailer " + field.getName() + ": " + field.getValue());
    }

    @Override
    public boolean messageComplete() {
        add("messageComplete");
        return false;
    }

    @Override
    public void badMessage(BadMessageException failure) {
        failures.add(failure);
        add("bad " + failure.getStatus());
    }

    @Override
    public void earlyEOF() {
        add("earlyEOF");
    }

    private void add(String event) {
        content = null;
        events.add(event);
    }

    /** @return the requests started, as their targets */
    List<String> targets() {
        return events.stream().filter(e -> e.startsWith("request ")).map(e -> e.split(" ")[2]).toList();
    }
}
