package io.wharf.server.handler.gzip;

import java.nio.ByteBuffer;
import java.nio.channels.WritePendingException;
import java.util.List;

import io.wharf.http.EntityTag;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http.HttpMethod;
import io.wharf.http.HttpStatus;
import io.wharf.http.KnownFields;
import io.wharf.http.MimeTypes;
import io.wharf.http.compression.GzipEncoder;
import io.wharf.server.Response;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import io.wharf.util.IteratingCallback;
import io.wharf.util.buffer.ByteBuffers;
import io.wharf.util.buffer.RetainableByteBuffer;

/**
 * The response a {@link GzipHandler}'s child writes: decides at its first write (or when the
 * child completes without writing) whether to compress, by the rules {@link GzipHandler}
 * lists, and then either passes writes through or compresses each one into the response
 * underneath.
 *
 * <pre>
 *   UNDECIDED ──first write──► IDENTITY    writes pass through
 *                         └──► COMPRESSING each write: encode ─► output full? write it, go on
 *                         └──► HEAD        head of a compressed GET, no content
 * </pre>
 *
 * <p><b>Threads.</b> One write at a time, as {@link Response} says; each compressing write is
 * a {@link CompressingWrite} loop that runs on the writer's thread and then on the thread
 * completing the write underneath. {@link #abort} may come from another thread; a lock guards
 * the resources against it.
 *
 * <p><b>Buffers.</b> The caller's buffer is only read, and is the caller's again when its
 * write's callback completes. Compressed bytes go into one output buffer of
 * {@link GzipHandler#getBufferSize()} bytes borrowed from the server's pool at the first
 * compressing write; small writes accumulate in it until it fills, a flush (an empty non-last
 * write) or the last write sends it. It is released after the last write, on failure, or on
 * {@link #abort}, and the encoder's deflater goes back to its pool at the same points.
 */
final class GzipResponse extends Response.Wrapper {

    private enum Mode {
        /** Nothing written yet. */
        UNDECIDED,
        /** Not compressed: writes pass through. */
        IDENTITY,
        /** Compressed: writes go through the encoder. */
        COMPRESSING,
        /** The response to a HEAD request that GET would compress: the head only. */
        HEAD
    }

    private static final String GZIP = "gzip";
    private static final String MULTIPART_BYTERANGES = "multipart/byteranges";

    private final GzipHandler handler;
    private final GzipRequest request;
    private final boolean acceptsGzip;
    private final boolean identityRefused;
    private volatile Mode mode = Mode.UNDECIDED;
    private volatile boolean lastWritten;
    // Guarded by this: the encoder's resources, and whether a write uses them now.
    private GzipEncoder encoder;
    private RetainableByteBuffer output;
    private boolean writing;
    private boolean aborted;

    /**
     * @param acceptsGzip whether the request's Accept-Encoding prefers gzip to identity
     * @param identityRefused whether it refuses identity, so that even small content is compressed
     */
    GzipResponse(GzipHandler handler, GzipRequest request, Response wrapped, boolean acceptsGzip, boolean identityRefused) {
        super(request, wrapped);
        this.handler = handler;
        this.request = request;
        this.acceptsGzip = acceptsGzip;
        this.identityRefused = identityRefused;
    }

    /**
     * @return whether the head is decided: once the first write chose how to send the content
     *     (compressed content may still sit in the output buffer), the head no longer changes
     */
    @Override
    public boolean isCommitted() {
        return mode != Mode.UNDECIDED || super.isCommitted();
    }

    /** Sets the status; ignored once {@link #isCommitted() committed}. */
    @Override
    public void setStatus(int status) {
        if (!isCommitted()) {
            super.setStatus(status);
        }
    }

    /** @throws IllegalStateException once {@link #isCommitted() committed} */
    @Override
    public void reset() {
        if (isCommitted()) {
            throw new IllegalStateException("the response is committed");
        }
        super.reset();
    }

    @Override
    public void write(boolean last, ByteBuffer buffer, Callback callback) {
        if (mode == Mode.UNDECIDED) {
            mode = decide(last, buffer);
        }
        switch (mode) {
            case IDENTITY -> getWrapped().write(last, buffer, callback);
            case HEAD -> getWrapped().write(last, null, callback);
            case COMPRESSING -> compress(last, buffer, callback);
            case UNDECIDED -> throw new IllegalStateException("gzip response undecided after its first write");
        }
    }

    private void compress(boolean last, ByteBuffer buffer, Callback callback) {
        RuntimeException refused = null;
        synchronized (this) {
            if (aborted) {
                refused = new IllegalStateException("gzip response was aborted");
            } else if (lastWritten) {
                refused = new IllegalStateException("write after the last write of a gzip response");
            } else if (writing) {
                refused = new WritePendingException();
            }
            if (refused == null) {
                start(last);
            }
        }
        if (refused != null) {
            callback.failed(refused);
            return;
        }
        new CompressingWrite(buffer == null ? ByteBuffers.EMPTY : buffer, last, callback).iterate();
    }

    /** Under the lock: marks a write in flight and makes sure there is an output buffer. */
    private void start(boolean last) {
        writing = true;
        if (last) {
            lastWritten = true;
        }
        if (output == null) {
            output = GzipHandler.bufferPool(request).acquire(handler.getBufferSize(), true);
        }
    }

    /**
     * Ends the response when the child's callback succeeded: finishes the gzip stream when the
     * child did not write its last content, else decides the head of a response that was never
     * written (a 304, say), then completes {@code callback}.
     */
    void complete(Callback callback) {
        if (mode == Mode.UNDECIDED) {
            mode = decide(true, null);
        }
        if (mode == Mode.COMPRESSING && !lastWritten) {
            write(true, null, callback);
        } else {
            callback.succeeded();
        }
    }

    /** Gives up: the deflater and the output buffer are freed now, or when the write in flight completes. */
    void abort(Throwable cause) {
        synchronized (this) {
            aborted = true;
            if (!writing) {
                releaseResources();
            }
        }
    }

    private Mode decide(boolean last, ByteBuffer buffer) {
        HttpFields.Mutable headers = getHeaders();
        int status = getStatus();
        String type = headers.get(HttpHeader.CONTENT_TYPE);
        if (hidesRepresentationType(status, type)) {
            // Vary as the 200 would; a 304 to a client that holds the gzip variant also names its tag.
            boolean gzipVariant = status == HttpStatus.NOT_MODIFIED_304 && request.isConditionalOnGzipVariant();
            if (gzipVariant || handler.isPathTypeCompressible(request.getPathInContext())) {
                addVary(headers);
            }
            if (gzipVariant) {
                putVariantTag(headers);
            }
            return Mode.IDENTITY;
        }
        if (type == null || !handler.isMimeTypeCompressible(type)) {
            return Mode.IDENTITY;
        }
        addVary(headers);
        if (!acceptsGzip || !compressibleStatus(status)
                || headers.contains(HttpHeader.CONTENT_ENCODING) || headers.contains(HttpHeader.CONTENT_RANGE)) {
            return Mode.IDENTITY;
        }
        long length = declaredLength(headers);
        if (length < 0 && last) {
            length = buffer == null ? 0 : buffer.remaining();
        }
        if (length == 0 || length > 0 && length < handler.getMinGzipSize() && !identityRefused) {
            return Mode.IDENTITY;
        }
        headers.put(KnownFields.CONTENT_ENCODING_GZIP);
        headers.remove(HttpHeader.CONTENT_LENGTH);
        putVariantTag(headers);
        if (HttpMethod.HEAD.is(request.getMethod())) {
            return Mode.HEAD;
        }
        synchronized (this) {
            encoder = new GzipEncoder(handler.deflaters());
        }
        return Mode.COMPRESSING;
    }

    /**
     * @return whether the head answers about a representation without showing its type: a 304 or
     *     a 416 (whose content, if any, is not the representation), or a 206 of several ranges,
     *     typed {@code multipart/byteranges}
     */
    private static boolean hidesRepresentationType(int status, String type) {
        return status == HttpStatus.NOT_MODIFIED_304 || status == HttpStatus.RANGE_NOT_SATISFIABLE_416
                || type != null && MULTIPART_BYTERANGES.equalsIgnoreCase(MimeTypes.getBaseType(type));
    }

    private static boolean compressibleStatus(int status) {
        return HttpStatus.isSuccess(status) && status != HttpStatus.NO_CONTENT_204
                && status != HttpStatus.RESET_CONTENT_205 && status != HttpStatus.PARTIAL_CONTENT_206;
    }

    /** @return the declared Content-Length, or -1 when there is none or it is not a number */
    private static long declaredLength(HttpFields headers) {
        try {
            return headers.getLongField(HttpHeader.CONTENT_LENGTH);
        } catch (NumberFormatException x) {
            return -1;
        }
    }

    /** Adds {@code Accept-Encoding} to Vary, merged into one field, unless it is there or Vary is {@code *}. */
    static void addVary(HttpFields.Mutable headers) {
        List<String> vary = headers.getCommaSeparated(HttpHeader.VARY);
        for (String element : vary) {
            String name = element.trim();
            if (name.equals("*") || name.equalsIgnoreCase(HttpHeader.ACCEPT_ENCODING.asString())) {
                return;
            }
        }
        if (vary.isEmpty()) {
            headers.put(KnownFields.VARY_ACCEPT_ENCODING);
        } else {
            headers.put(HttpHeader.VARY, String.join(", ", vary) + ", " + HttpHeader.ACCEPT_ENCODING.asString());
        }
    }

    /** Replaces the ETag by its gzip variant; drops an ETag that is not well formed, which would otherwise name both representations. */
    private static void putVariantTag(HttpFields.Mutable headers) {
        String etag = headers.get(HttpHeader.ETAG);
        if (etag == null) {
            return;
        }
        try {
            headers.put(HttpHeader.ETAG, EntityTag.parse(etag).withVariant(GZIP).asString());
        } catch (IllegalArgumentException malformed) {
            headers.remove(HttpHeader.ETAG);
        }
    }

    /** Under the lock: gives the deflater back and releases the output buffer. */
    private void releaseResources() {
        if (encoder != null) {
            encoder.abort();
        }
        if (output != null) {
            output.release();
            output = null;
        }
    }

    @Override
    public String toString() {
        return "GzipResponse@" + Integer.toHexString(hashCode()) + "[" + mode + (lastWritten ? ",last" : "") + "]";
    }

    /**
     * One write of the child, compressed: each {@link #process()} encodes what fits into the
     * output buffer and, when the buffer is full, the content is flushed or it is the last
     * write, writes the buffer to the response underneath.
     */
    private final class CompressingWrite extends IteratingCallback {
        private final ByteBuffer input;
        private final boolean last;
        private final Callback callback;
        private final GzipEncoder.Flush flush;
        private boolean done;

        CompressingWrite(ByteBuffer input, boolean last, Callback callback) {
            this.input = input;
            this.last = last;
            this.callback = callback;
            this.flush = last ? GzipEncoder.Flush.FINISH : input.hasRemaining() ? GzipEncoder.Flush.NONE : GzipEncoder.Flush.SYNC;
        }

        @Override
        protected Action process() {
            if (done) {
                return Action.SUCCEEDED;
            }
            ByteBuffer buffer = output.byteBuffer();
            if (!encoder.encode(input, flush, buffer)) {
                getWrapped().write(false, buffer, this);
                return Action.SCHEDULED;
            }
            done = true;
            if (flush != GzipEncoder.Flush.NONE) {
                getWrapped().write(last, buffer, this);
                return Action.SCHEDULED;
            }
            // Keep what the deflater emitted until the buffer fills or the content is flushed.
            return Action.SUCCEEDED;
        }

        @Override
        protected void onSuccess() {
            // The write underneath is done with the buffer: empty it for the next bytes.
            output.byteBuffer().limit(0);
        }

        @Override
        protected void onCompleteSuccess() {
            synchronized (GzipResponse.this) {
                writing = false;
                if (last || aborted) {
                    releaseResources();
                }
            }
            callback.succeeded();
        }

        @Override
        protected void onCompleteFailure(Throwable cause) {
            synchronized (GzipResponse.this) {
                writing = false;
                aborted = true;
                releaseResources();
            }
            callback.failed(cause);
        }

        @Override
        public InvocationType invocationType() {
            return callback.invocationType();
        }
    }
}
