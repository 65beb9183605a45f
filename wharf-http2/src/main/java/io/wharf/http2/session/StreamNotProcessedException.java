package io.wharf.http2.session;

import java.io.IOException;

/**
 * The peer did not process a stream we opened: its GOAWAY named a last stream below it, or it
 * reset it with REFUSED_STREAM. RFC 9113 section 8.7 says such a request may be sent again, on
 * another connection, whatever its method. Told to the stream's listener through
 * {@link Http2Stream.Listener#onReset}; immutable.
 */
public final class StreamNotProcessedException extends IOException {

    private static final long serialVersionUID = 1L;

    public StreamNotProcessedException(String message) {
        super(message);
    }
}
