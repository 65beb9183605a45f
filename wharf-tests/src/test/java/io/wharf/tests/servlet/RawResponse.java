package io.wharf.tests.servlet;

import java.nio.charset.StandardCharsets;

/**
 * One HTTP/1.1 response as it came off the wire: the status line's parts, the header fields,
 * the body with any chunked framing taken off, and the trailer fields of a chunked body
 * (empty otherwise).
 */
record RawResponse(String version, int status, String reason, HeaderFields headers, byte[] body, HeaderFields trailers) {

    /** @return the body's bytes one char each (ISO-8859-1), so that no byte is lost or merged */
    String bodyText() {
        return new String(body, StandardCharsets.ISO_8859_1);
    }
}
