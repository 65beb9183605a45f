package io.wharf.server;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

import io.wharf.http.HttpHeader;
import io.wharf.http.HttpStatus;
import io.wharf.http.MimeTypes;
import io.wharf.http.QualityList;
import io.wharf.util.Callback;

/**
 * Writes error responses: a short page in HTML, JSON or plain text, chosen by the request's
 * {@code Accept}. Messages are escaped for the chosen format; stack traces are never shown
 * unless {@link #setShowStacks(boolean) asked for}. Called on whatever thread reports the
 * error; it never blocks (one write of a small buffer).
 */
public class ErrorHandler {

    private static final List<String> FORMATS = List.of("text/html", "application/json", "text/plain");

    private volatile boolean showStacks;

    /** @return whether pages include the cause's stack trace (default false) */
    public boolean isShowStacks() {
        return showStacks;
    }

    public void setShowStacks(boolean showStacks) {
        this.showStacks = showStacks;
    }

    /**
     * Writes the error page; the response is already reset and has its status.
     *
     * @param message a message for the client, or null for the status's reason
     * @param cause the failure, or null
     */
    public void writeError(Request request, Response response, Callback callback, int status, String message, Throwable cause) {
        String text = message != null ? message : HttpStatus.getReason(status);
        String detail = showStacks && cause != null ? stackOf(cause) : null;
        String format = request == null ? "text/plain" : chooseFormat(request);
        String body = switch (format) {
            case "text/html" -> html(status, text, detail);
            case "application/json" -> json(status, text, detail);
            default -> plain(status, text, detail);
        };
        MimeTypes.Type type = switch (format) {
            case "text/html" -> MimeTypes.Type.TEXT_HTML_UTF_8;
            case "application/json" -> MimeTypes.Type.APPLICATION_JSON_UTF_8;
            default -> MimeTypes.Type.TEXT_PLAIN_UTF_8;
        };
        response.getHeaders().put(type.getContentTypeField());
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "must-revalidate,no-cache,no-store");
        if (HttpStatus.hasNoBody(status)) {
            response.write(true, null, callback);
            return;
        }
        response.write(true, ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)), callback);
    }

    private static String chooseFormat(Request request) {
        List<String> accept = request.getHeaders().getValuesList(HttpHeader.ACCEPT);
        if (accept.isEmpty()) {
            return "text/html";
        }
        String preferred = QualityList.parse(accept).preferred(FORMATS);
        return preferred == null ? "text/plain" : preferred;
    }

    private static String html(int status, String message, String detail) {
        String reason = escapeHtml(HttpStatus.getReason(status));
        StringBuilder page = new StringBuilder(256)
                .append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>")
                .append(status).append(' ').append(reason).append("</title></head>\n<body><h1>")
                .append(status).append(' ').append(reason).append("</h1>\n<p>")
                .append(escapeHtml(message)).append("</p>\n");
        if (detail != null) {
            page.append("<pre>").append(escapeHtml(detail)).append("</pre>\n");
        }
        return page.append("</body></html>\n").toString();
    }

    private static String json(int status, String message, String detail) {
        StringBuilder json = new StringBuilder(128).append("{\"status\":").append(status)
                .append(",\"message\":\"").append(escapeJson(message)).append('"');
        if (detail != null) {
            json.append(",\"stack\":\"").append(escapeJson(detail)).append('"');
        }
        return json.append("}\n").toString();
    }

    private static String plain(int status, String message, String detail) {
        String text = status + " " + HttpStatus.getReason(status) + "\n" + message + "\n";
        return detail == null ? text : text + detail;
    }

    /** @return {@code text} with {@code & < > " '} escaped as HTML entities */
    public static String escapeHtml(String text) {
        StringBuilder escaped = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> escaped.append("&amp;");
                case '<' -> escaped.append("&lt;");
                case '>' -> escaped.append("&gt;");
                case '"' -> escaped.append("&quot;");
                case '\'' -> escaped.append("&#39;");
                default -> escaped.append(c < 0x20 && c != '\n' && c != '\t' ? '?' : c);
            }
        }
        return escaped.toString();
    }

    private static String escapeJson(String text) {
        StringBuilder escaped = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> escaped.append("\\\"");
                case '\\' -> escaped.append("\\\\");
                case '\n' -> escaped.append("\\n");
                case '\r' -> escaped.append("\\r");
                case '\t' -> escaped.append("\\t");
                default -> {
                    if (c < 0x20 || c == '<' || c == '>') {
                        escaped.append(String.format("\\u%04x", (int) c));
                    } else {
                        escaped.append(c);
                    }
                }
            }
        }
        return escaped.toString();
    }

    private static String stackOf(Throwable cause) {
        java.io.StringWriter writer = new java.io.StringWriter();
        cause.printStackTrace(new java.io.PrintWriter(writer));
        return writer.toString();
    }
}
