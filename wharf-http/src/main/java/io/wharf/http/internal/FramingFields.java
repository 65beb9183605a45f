package io.wharf.http.internal;

import java.util.List;

import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http.HttpHeaderValue;

/**
 * What a generator must know of a message's own fields before it writes them: whether they
 * have a Host, a Date or a Server field (which it would otherwise add), the Content-Length
 * they declare, the form of their Transfer-Encoding and the options of their Connection
 * fields. One instance per generator, refilled by {@link #scan} for every message on the
 * generator's thread; allocates nothing for fields that are well formed.
 */
public final class FramingFields {

    /** The shape of the message's Transfer-Encoding fields. */
    public enum TransferCoding {
        /** No Transfer-Encoding field. */
        NONE,
        /** Exactly {@code chunked}: the generator writes its own line instead. */
        CHUNKED,
        /** Other codings then {@code chunked} (e.g. {@code gzip, chunked}): written as given. */
        CODINGS_THEN_CHUNKED
    }

    /** The options of the message's Connection fields that matter to persistence. */
    public enum ConnectionOption {
        NONE, KEEP_ALIVE, CLOSE
    }

    private boolean hasHost;
    private boolean hasDate;
    private boolean hasServer;
    private long contentLength;
    private TransferCoding transferCoding;
    private ConnectionOption connectionOption;

    public FramingFields() {
        clear();
    }

    /**
     * Reads {@code fields}, forgetting the previous message.
     *
     * @throws IllegalArgumentException when Content-Length fields are not a number or disagree,
     *     or a Transfer-Encoding does not end with {@code chunked}
     */
    public void scan(HttpFields fields) {
        clear();
        int transferEncodings = 0;
        HttpField lastTransferEncoding = null;
        for (int i = 0, size = fields.size(); i < size; i++) {
            HttpField field = fields.getField(i);
            HttpHeader header = field.getHeader();
            if (header == null) {
                continue;
            }
            switch (header) {
                case HOST -> hasHost = true;
                case DATE -> hasDate = true;
                case SERVER -> hasServer = true;
                case CONTENT_LENGTH -> scanContentLength(field);
                case TRANSFER_ENCODING -> {
                    transferEncodings++;
                    lastTransferEncoding = field;
                }
                case CONNECTION -> {
                    if (field.contains(HttpHeaderValue.CLOSE.asString())) {
                        connectionOption = ConnectionOption.CLOSE;
                    } else if (connectionOption == ConnectionOption.NONE
                            && field.contains(HttpHeaderValue.KEEP_ALIVE.asString())) {
                        connectionOption = ConnectionOption.KEEP_ALIVE;
                    }
                }
                default -> {
                }
            }
        }
        if (lastTransferEncoding != null) {
            boolean plain = HttpHeaderValue.CHUNKED.is(lastTransferEncoding.getValue());
            if (!plain) {
                checkEndsWithChunked(lastTransferEncoding);
            }
            transferCoding = plain && transferEncodings == 1
                    ? TransferCoding.CHUNKED
                    : TransferCoding.CODINGS_THEN_CHUNKED;
        }
    }

    /** @return whether a Host field is present */
    public boolean hasHost() {
        return hasHost;
    }

    /** @return whether a Date field is present */
    public boolean hasDate() {
        return hasDate;
    }

    /** @return whether a Server field is present */
    public boolean hasServer() {
        return hasServer;
    }

    /** @return the length the Content-Length fields declare, or -1 when there is none */
    public long contentLength() {
        return contentLength;
    }

    public TransferCoding transferCoding() {
        return transferCoding;
    }

    /** @return {@link ConnectionOption#CLOSE} when any Connection field says close */
    public ConnectionOption connectionOption() {
        return connectionOption;
    }

    private void clear() {
        hasHost = false;
        hasDate = false;
        hasServer = false;
        contentLength = -1;
        transferCoding = TransferCoding.NONE;
        connectionOption = ConnectionOption.NONE;
    }

    private void scanContentLength(HttpField field) {
        long length;
        try {
            length = field.getLongValue();
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Content-Length is not a number: " + e.getMessage(), e);
        }
        if (contentLength >= 0 && contentLength != length) {
            throw new IllegalArgumentException("Content-Length fields disagree: " + contentLength + " and " + length);
        }
        contentLength = length;
    }

    private static void checkEndsWithChunked(HttpField field) {
        List<String> codings = field.getValues();
        if (codings.isEmpty() || !HttpHeaderValue.CHUNKED.is(codings.get(codings.size() - 1))) {
            throw new IllegalArgumentException("Transfer-Encoding must end with chunked, not: " + field.getValue());
        }
    }
}
