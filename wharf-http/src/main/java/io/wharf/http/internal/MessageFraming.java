package io.wharf.http.internal;

import java.util.List;

import io.wharf.http.BadMessageException;
import io.wharf.http.HttpCompliance;
import io.wharf.http.HttpField;
import io.wharf.http.HttpHeader;
import io.wharf.http.HttpStatus;
import io.wharf.http.HttpVersion;
import io.wharf.http.KnownFields;
import io.wharf.http.LongValueHttpField;

/**
 * Watches the header fields that decide how a message's content is delimited
 * ({@code Content-Length}, {@code Transfer-Encoding}) and the {@code Host} rules of a
 * request, and at the end of the header says how the content is framed (RFC 9112 section
 * 6.3). It is where request smuggling is refused: a bad or conflicting length, a
 * {@code chunked} that is not the last coding, a transfer coding in HTTP/1.0, or both
 * framing headers at once.
 *
 * <p>Owned by one parser, used on its thread, reset for every message.
 */
public final class MessageFraming {

    /** How the content of a message is delimited. */
    public enum Framing {
        /** No content at all. */
        NO_CONTENT,
        /** Exactly {@link #contentLength()} bytes. */
        CONTENT_LENGTH,
        /** Chunked transfer coding. */
        CHUNKED,
        /** Everything until the peer closes (responses only). */
        UNTIL_CLOSE
    }

    /** What the Transfer-Encoding fields seen so far say, coding after coding. */
    private enum Codings {
        /** No Transfer-Encoding field. */
        NONE,
        /** Only chunked. */
        CHUNKED,
        /** Other codings, then chunked last. */
        OTHER_THEN_CHUNKED,
        /** Codings whose last is not chunked, and no chunked before. */
        NOT_CHUNKED,
        /** Chunked followed by some other coding. */
        CHUNKED_NOT_LAST
    }

    private final boolean request;
    private final ComplianceGate gate;
    private Codings codings = Codings.NONE;
    private long contentLength = -1;
    private int hosts;

    public MessageFraming(boolean request, ComplianceGate gate) {
        this.request = request;
        this.gate = gate;
    }

    /** Forgets the previous message. */
    public void reset() {
        codings = Codings.NONE;
        contentLength = -1;
        hosts = 0;
    }

    /** @return the length given by Content-Length, or -1; after {@link #decide} the length to read */
    public long contentLength() {
        return contentLength;
    }

    /**
     * Checks one header field.
     *
     * @return the field to pass on: a {@code Content-Length} comes back as a field holding its
     *     parsed number, any other field as given
     * @throws BadMessageException when the field breaks the framing rules
     */
    public HttpField accept(HttpField field) {
        HttpHeader header = field.getHeader();
        if (header == null) {
            return field;
        }
        switch (header) {
            case CONTENT_LENGTH -> {
                return contentLength(field);
            }
            case TRANSFER_ENCODING -> transferEncoding(field);
            case HOST -> {
                if (request && ++hosts > 1) {
                    gate.check(HttpCompliance.Violation.DUPLICATE_HOST_HEADERS, "Host", "more than one Host field");
                }
            }
            default -> {
            }
        }
        return field;
    }

    private HttpField contentLength(HttpField field) {
        long length = parseLength(field);
        if (contentLength >= 0) {
            if (length != contentLength) {
                throw new BadMessageException("Content-Length given twice with different values");
            }
            gate.check(HttpCompliance.Violation.MULTIPLE_CONTENT_LENGTHS, "Content-Length",
                    "Content-Length given more than once");
        }
        contentLength = length;
        if (field instanceof LongValueHttpField || field == KnownFields.CONTENT_LENGTH_ZERO) {
            return field;
        }
        return new LongValueHttpField(HttpHeader.CONTENT_LENGTH, field.getName(), field.getValue(), length);
    }

    private long parseLength(HttpField field) {
        if (field instanceof LongValueHttpField) {
            return field.getLongValue();
        }
        String value = field.getValue();
        try {
            return HttpField.parseDecimal(value);
        } catch (NumberFormatException notDigits) {
            if (value.indexOf(',') < 0 || !gate.allows(HttpCompliance.Violation.MULTIPLE_CONTENT_LENGTHS)) {
                throw new BadMessageException("Content-Length is not a non-negative decimal: " + notDigits.getMessage());
            }
            return parseLengthList(field.getValues());
        }
    }

    private long parseLengthList(List<String> elements) {
        long length = -1;
        for (String element : elements) {
            long each;
            try {
                each = HttpField.parseDecimal(element);
            } catch (NumberFormatException notDigits) {
                throw new BadMessageException("Content-Length list holds a bad number: " + notDigits.getMessage());
            }
            if (length >= 0 && each != length) {
                throw new BadMessageException("Content-Length list holds different values");
            }
            length = each;
        }
        if (length < 0) {
            throw new BadMessageException("Content-Length is empty");
        }
        gate.check(HttpCompliance.Violation.MULTIPLE_CONTENT_LENGTHS, "Content-Length list",
                "Content-Length given as a list");
        return length;
    }

    private void transferEncoding(HttpField field) {
        if (field == KnownFields.TRANSFER_ENCODING_CHUNKED) {
            coding(true);
            return;
        }
        List<String> elements = field.getValues();
        if (elements.isEmpty()) {
            throw new BadMessageException("Transfer-Encoding is empty");
        }
        for (String element : elements) {
            coding(element.equalsIgnoreCase("chunked"));
        }
    }

    private void coding(boolean chunked) {
        if (chunked) {
            codings = switch (codings) {
                case NONE -> Codings.CHUNKED;
                case NOT_CHUNKED -> Codings.OTHER_THEN_CHUNKED;
                case CHUNKED, OTHER_THEN_CHUNKED, CHUNKED_NOT_LAST ->
                    throw new BadMessageException("Transfer-Encoding applies chunked more than once");
            };
        } else {
            codings = switch (codings) {
                case NONE, NOT_CHUNKED -> Codings.NOT_CHUNKED;
                case CHUNKED, OTHER_THEN_CHUNKED, CHUNKED_NOT_LAST -> Codings.CHUNKED_NOT_LAST;
            };
            if (request && codings == Codings.CHUNKED_NOT_LAST) {
                throw new BadMessageException("Transfer-Encoding has a coding after chunked; chunked must be last");
            }
        }
    }

    /**
     * Decides the framing once the header is complete; {@link #contentLength()} then tells
     * the number of bytes to read for {@link Framing#CONTENT_LENGTH} (0 for no content, -1
     * otherwise).
     *
     * @param version the message's version
     * @param status the status of a response, ignored for a request
     * @param headResponse whether a response answers a HEAD request
     * @throws BadMessageException (400, or 501 for a request with a transfer coding other
     *     than chunked) when the framing cannot be trusted
     */
    public Framing decide(HttpVersion version, int status, boolean headResponse) {
        if (codings != Codings.NONE) {
            if (version == HttpVersion.HTTP_1_0) {
                throw new BadMessageException("Transfer-Encoding in an HTTP/1.0 message");
            }
            if (contentLength >= 0) {
                gate.check(HttpCompliance.Violation.TRANSFER_ENCODING_WITH_CONTENT_LENGTH, "Transfer-Encoding",
                        "both Transfer-Encoding and Content-Length");
                contentLength = -1;
            }
        }
        Framing framing = request ? requestFraming(version) : responseFraming(status, headResponse);
        if (framing == Framing.NO_CONTENT) {
            contentLength = 0;
        } else if (framing != Framing.CONTENT_LENGTH) {
            contentLength = -1;
        }
        return framing;
    }

    private Framing requestFraming(HttpVersion version) {
        if (hosts == 0 && version == HttpVersion.HTTP_1_1) {
            throw new BadMessageException("HTTP/1.1 request without a Host field");
        }
        return switch (codings) {
            case NONE -> contentLength > 0 ? Framing.CONTENT_LENGTH : Framing.NO_CONTENT;
            case CHUNKED -> Framing.CHUNKED;
            case OTHER_THEN_CHUNKED -> throw new BadMessageException(HttpStatus.NOT_IMPLEMENTED_501,
                    "Transfer-Encoding other than chunked is not supported");
            case NOT_CHUNKED, CHUNKED_NOT_LAST -> throw new BadMessageException(
                    "Transfer-Encoding of a request must end with chunked");
        };
    }

    private Framing responseFraming(int status, boolean headResponse) {
        if (headResponse || HttpStatus.hasNoBody(status)) {
            return Framing.NO_CONTENT;
        }
        return switch (codings) {
            case NONE -> contentLength > 0 ? Framing.CONTENT_LENGTH
                    : contentLength == 0 ? Framing.NO_CONTENT : Framing.UNTIL_CLOSE;
            case CHUNKED, OTHER_THEN_CHUNKED -> Framing.CHUNKED;
            case NOT_CHUNKED, CHUNKED_NOT_LAST -> Framing.UNTIL_CLOSE;
        };
    }
}
