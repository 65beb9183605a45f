package io.wharf.server.handler.gzip;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.zip.Deflater;

import io.wharf.http.AcceptEncoding;
import io.wharf.http.BadMessageException;
import io.wharf.http.HttpHeader;
import io.wharf.http.HttpMethod;
import io.wharf.http.MimeTypes;
import io.wharf.http.compression.DecoderLimits;
import io.wharf.http.compression.DeflaterPool;
import io.wharf.http.compression.InflaterPool;
import io.wharf.http.pathmap.PathSpec;
import io.wharf.server.Handler;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import io.wharf.util.buffer.ByteBufferPool;

/**
 * A handler wrapper that compresses responses with gzip for clients that accept it, and
 * inflates gzip request content for its child. Its invocation type is its child's: it adds
 * no blocking of its own.
 *
 * <p><b>Responses.</b> For a request whose method is included (GET and POST by default; HEAD
 * follows GET) and whose path in context is included and not excluded, the response is
 * wrapped in a {@link GzipResponse}, which decides when it is committed — at its first write,
 * or when the child completes without writing. It compresses when all of these hold:
 * <ul>
 * <li>the request's {@code Accept-Encoding} prefers {@code gzip} to identity, as
 *     {@link AcceptEncoding} decides ({@code gzip;q=0.5, identity} is not compressed for,
 *     {@code x-gzip} is gzip, {@code *} counts, {@code q=0} refuses; a request without the field
 *     is not compressed for);</li>
 * <li>the status is 2xx other than 204, 205 and 206, and there is no {@code Content-Range};</li>
 * <li>the response has no {@code Content-Encoding} yet;</li>
 * <li>its {@code Content-Type} is compressible ({@link #isMimeTypeCompressible});</li>
 * <li>its length is unknown or at least {@link #getMinGzipSize()}: the declared
 *     {@code Content-Length}, else the size of a first write that is also the last (unless the
 *     request refuses identity, {@code identity;q=0}: then any non-empty content is compressed).</li>
 * </ul>
 * Then it sets {@code Content-Encoding: gzip}, drops {@code Content-Length}, turns an
 * {@code ETag} into its {@code --gzip} variant and compresses every write. When the request
 * accepts neither gzip nor identity, its {@code Accept-Encoding} is disregarded and the response
 * goes uncompressed, not 406. A response of a
 * compressible type always gets {@code Vary: Accept-Encoding}, compressed or not, since
 * another client could get the other representation; so does every answer about such a
 * representation whose own head does not show its type — a 304, a 416, a 206 of several
 * ranges ({@code multipart/byteranges}) — when the type the request path's extension implies
 * is compressible or unknown. A HEAD response gets the head its GET would have, and nothing is
 * compressed.
 *
 * <p><b>Flushing.</b> Compressed bytes of non-last writes may wait in the output buffer (and
 * in the deflater) until it fills; an empty non-last write is a flush: the deflater is
 * sync-flushed and everything so far is written, so the client can inflate all content sent.
 * Until the first bytes go out, the response underneath stays uncommitted, but the gzip
 * response counts as committed from its first write.
 *
 * <p><b>Conditional requests.</b> A client that cached the compressed variant sends its tag
 * back; when the request accepts gzip, the {@code --gzip} suffix is stripped from
 * {@code If-None-Match} and {@code If-Match} so that the child compares against its own tag,
 * and a {@code 304} answering such a tag carries the variant tag and {@code Vary}.
 *
 * <p><b>Requests.</b> When inflation is on (the default) and a request has
 * {@code Content-Encoding: gzip} (or {@code x-gzip}), its child sees a request without
 * {@code Content-Encoding} and {@code Content-Length} whose content is inflated within
 * {@link #getDecoderLimits()} (10 MiB by default). Content inflating past the limit — a zip
 * bomb — gives the child a failure chunk carrying a {@link BadMessageException} 413, and the
 * response is 413 unless the child committed another; corrupt content likewise gives 400.
 * An empty body is empty content.
 *
 * <p><b>Threads and buffers.</b> Configure before starting. {@code handle} runs on the
 * child's thread; the wrappers it makes are used by one thread at a time as the
 * {@link Request} and {@link Response} contracts say. Compressed output and inflated content
 * live in buffers of {@link #getBufferSize()} bytes borrowed from the server's
 * {@link io.wharf.util.buffer.ByteBufferPool}, each released when written or read. Deflaters
 * and inflaters come from pools that start and stop with this handler.
 */
public class GzipHandler extends Handler.Wrapper {

    /** The default {@link #getMinGzipSize()}: below it the gzip framing outweighs the gain. */
    public static final int DEFAULT_MIN_GZIP_SIZE = 32;
    /** The default {@link #getBufferSize()}. */
    public static final int DEFAULT_BUFFER_SIZE = 8192;

    private static final String GZIP = "gzip";
    private static final List<String> GZIP_ONLY = List.of(GZIP);

    private final Set<String> includedMethods = new CopyOnWriteArraySet<>(List.of(HttpMethod.GET.asString(), HttpMethod.POST.asString()));
    private final List<PathSpec> includedPaths = new CopyOnWriteArrayList<>();
    private final List<PathSpec> excludedPaths = new CopyOnWriteArrayList<>();
    private final Set<String> includedMimeTypes = new CopyOnWriteArraySet<>();
    private final Set<String> excludedMimeTypes = new CopyOnWriteArraySet<>();
    private volatile int minGzipSize = DEFAULT_MIN_GZIP_SIZE;
    private volatile int compressionLevel = Deflater.DEFAULT_COMPRESSION;
    private volatile int deflaterPoolCapacity = DeflaterPool.DEFAULT_CAPACITY;
    private volatile int inflaterPoolCapacity = InflaterPool.DEFAULT_CAPACITY;
    private volatile int bufferSize = DEFAULT_BUFFER_SIZE;
    private volatile boolean inflateRequests = true;
    private volatile DecoderLimits decoderLimits = DecoderLimits.DEFAULT;
    private volatile DeflaterPool deflaters;
    private volatile InflaterPool inflaters;

    public GzipHandler() {
    }

    public GzipHandler(Handler handler) {
        super(handler);
    }

    @Override
    protected void doStart() throws Exception {
        deflaters = new DeflaterPool(deflaterPoolCapacity, compressionLevel, true);
        inflaters = new InflaterPool(inflaterPoolCapacity, true);
        super.doStart();
    }

    @Override
    protected void doStop() throws Exception {
        try {
            super.doStop();
        } finally {
            deflaters.close();
            inflaters.close();
        }
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        Handler child = getHandler();
        if (child == null) {
            return false;
        }
        boolean compressible = isMethodIncluded(request.getMethod()) && isPathIncluded(request.getPathInContext());
        AcceptEncoding acceptEncoding = compressible ? AcceptEncoding.of(request.getHeaders()) : AcceptEncoding.ABSENT;
        boolean acceptsGzip = acceptEncoding.choose(GZIP_ONLY).equals(GZIP);
        boolean inflate = inflateRequests && isGzipEncoded(request);
        if (!compressible && !inflate) {
            return child.handle(request, response, callback);
        }

        GzipRequest gzipRequest = new GzipRequest(request, acceptsGzip,
                inflate ? new InflatedContent(request, inflaters, decoderLimits, bufferPool(request), bufferSize) : null);
        GzipResponse gzipResponse = compressible
                ? new GzipResponse(this, gzipRequest, response, acceptsGzip, acceptEncoding.isIdentityRefused()) : null;
        Completion completion = new Completion(gzipRequest, response, gzipResponse, callback);
        boolean taken;
        try {
            taken = child.handle(gzipRequest, gzipResponse != null ? gzipResponse : response, completion);
        } catch (Throwable x) {
            gzipRequest.close();
            if (gzipResponse != null) {
                gzipResponse.abort(x);
            }
            // A 413 or 400 from inflating reached the server's exchange through fail(), which answers it.
            throw x;
        }
        if (!taken) {
            gzipRequest.close();
            if (gzipResponse != null) {
                gzipResponse.abort(new IllegalStateException("the child did not take the request"));
            }
        }
        return taken;
    }

    /** @return the buffer pool of the server the request came to */
    static ByteBufferPool bufferPool(Request request) {
        return request.getConnectionMetaData().getConnector().getByteBufferPool();
    }

    private static boolean isGzipEncoded(Request request) {
        List<String> codings = request.getHeaders().getCommaSeparated(HttpHeader.CONTENT_ENCODING);
        if (codings.size() != 1) {
            return false;
        }
        String coding = codings.get(0).trim().toLowerCase(Locale.ROOT);
        return coding.equals(GZIP) || coding.equals("x-gzip");
    }

    /** @return whether responses to {@code method} may be compressed; HEAD follows GET */
    public boolean isMethodIncluded(String method) {
        String name = HttpMethod.HEAD.is(method) ? HttpMethod.GET.asString() : method;
        return includedMethods.contains(name.toUpperCase(Locale.ROOT));
    }

    /** @return whether responses for {@code pathInContext} may be compressed */
    public boolean isPathIncluded(String pathInContext) {
        if (pathInContext == null || !pathInContext.startsWith("/")) {
            return includedPaths.isEmpty();
        }
        for (PathSpec excluded : excludedPaths) {
            if (excluded.matched(pathInContext) != null) {
                return false;
            }
        }
        if (includedPaths.isEmpty()) {
            return true;
        }
        for (PathSpec included : includedPaths) {
            if (included.matched(pathInContext) != null) {
                return true;
            }
        }
        return false;
    }

    /**
     * @param contentType a {@code Content-Type} value, parameters allowed
     * @return whether content of that type is worth compressing: false when its base type is
     *     excluded, true when included, else what {@link MimeTypes#isCompressible} says
     */
    public boolean isMimeTypeCompressible(String contentType) {
        String baseType = MimeTypes.getBaseType(contentType);
        if (baseType == null) {
            return false;
        }
        baseType = baseType.toLowerCase(Locale.ROOT);
        if (excludedMimeTypes.contains(baseType)) {
            return false;
        }
        return includedMimeTypes.contains(baseType) || MimeTypes.DEFAULT.isCompressible(baseType);
    }

    /**
     * @param pathInContext a request's path, whose extension implies the type of what it names
     * @return whether that type is {@link #isMimeTypeCompressible compressible}; true when the
     *     extension implies none, since the representation may then be of any type. Asked for
     *     answers whose head does not show the type (304, 416, {@code multipart/byteranges}).
     */
    public boolean isPathTypeCompressible(String pathInContext) {
        String type = pathInContext == null ? null : MimeTypes.DEFAULT.getMimeByExtension(pathInContext);
        return type == null || isMimeTypeCompressible(type);
    }

    // ---- configuration ----

    /** @return the methods whose responses may be compressed, upper case; GET and POST by default */
    public Set<String> getIncludedMethods() {
        return Set.copyOf(includedMethods);
    }

    /** Replaces the methods whose responses may be compressed. */
    public void setIncludedMethods(String... methods) {
        includedMethods.clear();
        for (String method : methods) {
            includedMethods.add(method.toUpperCase(Locale.ROOT));
        }
    }

    /**
     * Adds path specs ({@link PathSpec#from} declarations such as {@code /api/*} or
     * {@code *.txt}); once any is added, only matching paths are compressed.
     *
     * @throws IllegalArgumentException naming the problem when a declaration is not valid
     */
    public void addIncludedPaths(String... declarations) {
        for (String declaration : declarations) {
            includedPaths.add(PathSpec.from(declaration));
        }
    }

    /**
     * Adds path specs whose responses are never compressed; exclusion wins over inclusion.
     *
     * @throws IllegalArgumentException naming the problem when a declaration is not valid
     */
    public void addExcludedPaths(String... declarations) {
        for (String declaration : declarations) {
            excludedPaths.add(PathSpec.from(declaration));
        }
    }

    /** Adds media types (base types such as {@code application/x-custom}) to compress besides the compressible ones. */
    public void addIncludedMimeTypes(String... types) {
        for (String type : types) {
            includedMimeTypes.add(Objects.requireNonNull(MimeTypes.getBaseType(type), "media type").toLowerCase(Locale.ROOT));
        }
    }

    /** Adds media types never to compress, even when otherwise compressible; exclusion wins. */
    public void addExcludedMimeTypes(String... types) {
        for (String type : types) {
            excludedMimeTypes.add(Objects.requireNonNull(MimeTypes.getBaseType(type), "media type").toLowerCase(Locale.ROOT));
        }
    }

    /** @return the smallest known length worth compressing, {@value #DEFAULT_MIN_GZIP_SIZE} bytes by default */
    public int getMinGzipSize() {
        return minGzipSize;
    }

    /** @throws IllegalArgumentException when {@code minGzipSize} is negative */
    public void setMinGzipSize(int minGzipSize) {
        if (minGzipSize < 0) {
            throw new IllegalArgumentException("minGzipSize must be 0 or more, was " + minGzipSize);
        }
        this.minGzipSize = minGzipSize;
    }

    /** @return the deflate level, 0 to 9 or -1 for zlib's default (6) */
    public int getCompressionLevel() {
        return compressionLevel;
    }

    /**
     * Sets the deflate level; takes effect at the next start.
     *
     * @throws IllegalArgumentException when the level is not -1 or 0 to 9
     */
    public void setCompressionLevel(int level) {
        if (level != Deflater.DEFAULT_COMPRESSION && (level < Deflater.NO_COMPRESSION || level > Deflater.BEST_COMPRESSION)) {
            throw new IllegalArgumentException("compression level must be -1 (default) or 0 to 9, was " + level);
        }
        this.compressionLevel = level;
    }

    /** Sets how many deflaters and inflaters are kept for reuse; takes effect at the next start. */
    public void setCodecPoolCapacity(int deflaters, int inflaters) {
        if (deflaters < 1 || inflaters < 1) {
            throw new IllegalArgumentException("codec pool capacities must be at least 1, were " + deflaters + " and " + inflaters);
        }
        this.deflaterPoolCapacity = deflaters;
        this.inflaterPoolCapacity = inflaters;
    }

    /** @return the size of the buffers compressed output and inflated content are written into */
    public int getBufferSize() {
        return bufferSize;
    }

    /** @throws IllegalArgumentException when {@code bufferSize} is below 64 bytes */
    public void setBufferSize(int bufferSize) {
        if (bufferSize < 64) {
            throw new IllegalArgumentException("bufferSize must be at least 64 bytes, was " + bufferSize);
        }
        this.bufferSize = bufferSize;
    }

    /** @return whether gzip request content is inflated for the child; true by default */
    public boolean isInflateRequests() {
        return inflateRequests;
    }

    public void setInflateRequests(boolean inflateRequests) {
        this.inflateRequests = inflateRequests;
    }

    /** @return the limits inflated request content must stay within */
    public DecoderLimits getDecoderLimits() {
        return decoderLimits;
    }

    public void setDecoderLimits(DecoderLimits decoderLimits) {
        this.decoderLimits = Objects.requireNonNull(decoderLimits, "decoderLimits");
    }

    /** Sets the most bytes request content may inflate to; more fails it with 413. */
    public void setMaxInflatedBytes(long maxInflatedBytes) {
        this.decoderLimits = decoderLimits.withMaxInflatedBytes(maxInflatedBytes);
    }

    /** @return the deflaters of this handler; null when it is not started */
    DeflaterPool deflaters() {
        return deflaters;
    }

    @Override
    public String toString() {
        return "GzipHandler@" + Integer.toHexString(hashCode()) + "[min=" + minGzipSize + ", level=" + compressionLevel + "]";
    }

    /**
     * The callback handed to the child: finishes the compressed stream when the child did not
     * write its last content, and frees the inflation. After a content failure (413, 400) with
     * no response committed it drops the compressed stream instead: the server answers the
     * failure, which inflating reported to it through {@code fail()}.
     */
    private static final class Completion implements Callback {
        private final GzipRequest request;
        private final Response response;
        private final GzipResponse gzipResponse;
        private final Callback callback;

        Completion(GzipRequest request, Response response, GzipResponse gzipResponse, Callback callback) {
            this.request = request;
            this.response = response;
            this.gzipResponse = gzipResponse;
            this.callback = callback;
        }

        @Override
        public void succeeded() {
            request.close();
            BadMessageException bad = request.getContentFailure();
            if (bad != null && !response.isCommitted()) {
                if (gzipResponse != null) {
                    gzipResponse.abort(bad);
                }
                callback.succeeded();
                return;
            }
            if (gzipResponse != null) {
                gzipResponse.complete(callback);
            } else {
                callback.succeeded();
            }
        }

        @Override
        public void failed(Throwable cause) {
            request.close();
            if (gzipResponse != null) {
                gzipResponse.abort(cause);
            }
            callback.failed(cause);
        }

        @Override
        public InvocationType invocationType() {
            return callback.invocationType();
        }
    }
}
