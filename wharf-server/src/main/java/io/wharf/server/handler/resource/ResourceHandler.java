package io.wharf.server.handler.resource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import io.wharf.http.AcceptEncoding;
import io.wharf.http.ByteRange;
import io.wharf.http.ByteRanges;
import io.wharf.http.EntityTag;
import io.wharf.http.HttpDateFormat;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http.HttpMethod;
import io.wharf.http.HttpStatus;
import io.wharf.http.MimeTypes;
import io.wharf.http.MultiPartByteRanges;
import io.wharf.http.Preconditions;
import io.wharf.http.UriPath;
import io.wharf.server.Handler;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;

/**
 * Serves static files for GET and HEAD from a base directory or a class path location: the
 * leaf that answers {@code /css/site.css} with the file {@code <base>/css/site.css}.
 *
 * <p><b>What it answers.</b>
 * <ul>
 * <li>Other methods, and paths with nothing under the base, are passed on (it returns false),
 *     so a later handler — often a
 *     {@link io.wharf.server.handler.DefaultHandler DefaultHandler} — answers them.</li>
 * <li>A path it refuses to map (see {@link ResourceBase}: dot segments, NUL, backslashes,
 *     Windows-style aliases, symbolic links unless {@link #setFollowSymlinks followed}, any
 *     other alias unless an {@link AliasChecker} allows it) gets 404, as if missing.</li>
 * <li>A file gets 200 with {@code Content-Type} (by extension, with a charset for text),
 *     {@code Content-Length}, {@code Last-Modified}, a strong {@code ETag} (see
 *     {@link EntityTag#ofFile}), {@code Accept-Ranges: bytes} and the configured
 *     {@code Cache-Control} (none by default). Conditional fields are evaluated by
 *     {@link Preconditions}: 304 (with the validators, Cache-Control and Vary, no body) or
 *     412. A GET's {@code Range} is honoured (single range: 206 with Content-Range; several:
 *     206 {@code multipart/byteranges} with an exact Content-Length; none satisfiable: 416
 *     with {@code Content-Range: bytes *}{@code /length}; abusive or If-Range stale: 200).</li>
 * <li>Precompressed variants ({@code br} and {@code gzip} by default): when {@code f.br} or
 *     {@code f.gz} lies beside {@code f}, is not older, and the request's
 *     {@code Accept-Encoding} prefers it to the others and to identity, by the rules of
 *     {@link AcceptEncoding}, the same as
 *     {@link io.wharf.server.handler.gzip.GzipHandler GzipHandler}'s (a coding with {@code q=0} is
 *     never chosen, {@code x-gzip} is gzip; without the field, the original is sent), it is
 *     served with {@code Content-Encoding}, the original's Content-Type and its own ETag ({@link EntityTag#withVariant}). Every answer
 *     about a file that has a variant carries {@code Vary: Accept-Encoding}. Several ranges of
 *     a compressed variant are answered with the whole variant (200), since a multipart body
 *     cannot carry a Content-Encoding for its parts.</li>
 * <li>A directory path without a final {@code /} is redirected with 302 to the same path with
 *     it (query kept). With it, the first {@link #setWelcomeFiles welcome file} present is
 *     served; otherwise, when {@link #setDirectoriesListed listings} are on, an HTML listing;
 *     otherwise 403 (the directory exists, but its contents are not for browsing).</li>
 * <li>An I/O failure before anything is written is answered 500; after, the response is
 *     aborted.</li>
 * </ul>
 *
 * <p><b>Threads.</b> BLOCKING: it reads file attributes and files, so the server never calls
 * it on a selector thread. Content is written by a {@link FileContentWriter}, which goes on
 * from the threads that complete each write; the handler's thread returns as soon as the
 * first write is started, so a slow client holds no thread. Configure before starting; the
 * setters are safe to call later, and a request sees either the old or the new value.
 *
 * <p><b>Buffers.</b> Small and medium files are read into pooled direct buffers of
 * {@link #setBufferSize bufferSize} bytes, one at a time, released when their write completes;
 * regions of at least {@link #setMappingThreshold mappingThreshold} bytes are memory-mapped in
 * slices of 4 MiB and written from the page cache without copying. Nothing loads a whole large
 * file onto the heap.
 */
public class ResourceHandler extends Handler.Abstract {

    private static final Preconditions PRECONDITIONS = new Preconditions(HttpDateFormat::parse);

    private final Path baseDirectory;
    private final ClassLoader classLoader;
    private final String classPathPrefix;
    private volatile ResourceBase base;
    private volatile boolean followSymlinks;
    private volatile AliasChecker aliasChecker;
    private volatile List<String> welcomeFiles = List.of("index.html");
    private volatile boolean directoriesListed;
    private volatile int maxListedEntries = 10_000;
    private volatile List<PrecompressedFormat> precompressedFormats = List.of(PrecompressedFormat.BR, PrecompressedFormat.GZIP);
    private volatile String cacheControl;
    private volatile boolean etags = true;
    private volatile boolean weakEtags;
    private volatile int bufferSize = 32 * 1024;
    private volatile long mappingThreshold = 1024 * 1024;
    private volatile MimeTypes mimeTypes = MimeTypes.DEFAULT;
    private volatile ByteRanges.Limits rangeLimits = ByteRanges.Limits.DEFAULT;

    /** Serves the files under {@code baseDirectory}, which must be a directory when the handler starts. */
    public ResourceHandler(Path baseDirectory) {
        super(InvocationType.BLOCKING);
        this.baseDirectory = Objects.requireNonNull(baseDirectory, "baseDirectory");
        this.classLoader = null;
        this.classPathPrefix = null;
    }

    /**
     * Serves the class path directory {@code prefix} of {@code loader}: a directory, or a
     * directory entry in a jar file (read through the JDK's zip file system, opened when the
     * handler starts and closed when it stops). When several class path elements hold the
     * prefix, the first one the loader finds is served.
     */
    public ResourceHandler(ClassLoader loader, String prefix) {
        super(InvocationType.BLOCKING);
        this.baseDirectory = null;
        this.classLoader = Objects.requireNonNull(loader, "loader");
        this.classPathPrefix = Objects.requireNonNull(prefix, "prefix");
    }

    @Override
    protected void doStart() throws Exception {
        base = baseDirectory != null ? ResourceBase.ofDirectory(baseDirectory) : ResourceBase.ofClassPath(classLoader, classPathPrefix);
        super.doStart();
    }

    @Override
    protected void doStop() throws Exception {
        super.doStop();
        ResourceBase current = base;
        base = null;
        if (current != null) {
            current.close();
        }
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String method = request.getMethod();
        if (!HttpMethod.GET.is(method) && !HttpMethod.HEAD.is(method)) {
            return false;
        }
        ResourceBase current = base;
        if (current == null) {
            return false;
        }
        String path = request.getPathInContext();
        if (path.isEmpty()) {
            return false; // CONNECT host:port or OPTIONS * (not GET, but a wrapper may say otherwise): no resource
        }
        try {
            switch (current.lookup(path, followSymlinks, aliasChecker)) {
                case ResourceBase.Lookup.Missing missing -> {
                    return false;
                }
                case ResourceBase.Lookup.Refused refused -> Response.writeError(request, response, callback, HttpStatus.NOT_FOUND_404, null);
                case ResourceBase.Lookup.Found found when found.resource().directory() -> serveDirectory(current, request, response, callback, path, found.resource());
                case ResourceBase.Lookup.Found found -> serveFile(current, request, response, callback, path, found.resource());
            }
        } catch (IOException e) {
            Response.writeError(request, response, callback, HttpStatus.INTERNAL_SERVER_ERROR_500, null, e);
        }
        return true;
    }

    private void serveDirectory(ResourceBase current, Request request, Response response, Callback callback,
                                String path, Resource directory) throws IOException {
        if (!path.endsWith("/")) {
            String query = request.getHttpURI().getQuery();
            String location = UriPath.encodePath(request.getContextPath() + path + "/") + (query == null ? "" : "?" + query);
            Response.sendRedirect(request, response, callback, HttpStatus.FOUND_302, location);
            return;
        }
        for (String welcome : welcomeFiles) {
            String welcomePath = path + welcome;
            if (current.lookup(welcomePath, followSymlinks, aliasChecker) instanceof ResourceBase.Lookup.Found found
                    && !found.resource().directory()) {
                serveFile(current, request, response, callback, welcomePath, found.resource());
                return;
            }
        }
        if (!directoriesListed) {
            Response.writeError(request, response, callback, HttpStatus.FORBIDDEN_403, "Directory listing is not allowed");
            return;
        }
        int max = maxListedEntries;
        List<Resource> entries = directory.list(max + 1);
        boolean truncated = entries.size() > max;
        String page = DirectoryListing.render(request.getContextPath() + path, truncated ? entries.subList(0, max) : entries, truncated);
        byte[] bytes = page.getBytes(StandardCharsets.UTF_8);
        response.getHeaders().put(MimeTypes.Type.TEXT_HTML_UTF_8.getContentTypeField());
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
        response.write(true, HttpMethod.HEAD.is(request.getMethod()) ? null : ByteBuffer.wrap(bytes), callback);
    }

    /** The file to send for a request and what the response says about it. */
    private record Representation(Resource resource, PrecompressedFormat format, boolean varies) {
    }

    private void serveFile(ResourceBase current, Request request, Response response, Callback callback,
                           String path, Resource original) throws IOException {
        Representation representation = choose(current, request, path, original);
        Resource file = representation.resource();
        EntityTag tag = null;
        if (etags) {
            tag = EntityTag.ofFile(file.lastModified(), file.length(), weakEtags);
            if (representation.format() != null) {
                tag = tag.withVariant(representation.format().coding());
            }
        }
        HttpFields.Mutable headers = response.getHeaders();
        if (tag != null) {
            headers.put(HttpHeader.ETAG, tag.asString());
        }
        headers.put(HttpHeader.LAST_MODIFIED, HttpDateFormat.format(file.lastModified()));
        String cache = cacheControl;
        if (cache != null) {
            headers.put(HttpHeader.CACHE_CONTROL, cache);
        }
        if (representation.varies()) {
            headers.add(HttpHeader.VARY, HttpHeader.ACCEPT_ENCODING.asString());
        }
        String method = request.getMethod();
        Preconditions.Evaluation evaluation = PRECONDITIONS.evaluate(method, request.getHeaders(), tag, file.lastModified(), true);
        switch (evaluation.result()) {
            case NOT_MODIFIED -> {
                response.setStatus(HttpStatus.NOT_MODIFIED_304);
                response.write(true, null, callback);
                return;
            }
            case PRECONDITION_FAILED -> {
                Response.writeError(request, response, callback, HttpStatus.PRECONDITION_FAILED_412, null);
                return;
            }
            case PROCEED -> {
            }
        }
        String contentType = contentTypeOf(path);
        headers.put(HttpHeader.ACCEPT_RANGES, "bytes");
        if (representation.format() != null) {
            headers.put(HttpHeader.CONTENT_ENCODING, representation.format().coding());
        }
        headers.put(HttpHeader.CONTENT_TYPE, contentType);
        long length = file.length();
        ByteRanges ranges = HttpMethod.GET.is(method) && !evaluation.ignoreRange()
                ? ByteRanges.of(request.getHeaders(), length, rangeLimits)
                : new ByteRanges.Ignored(ByteRanges.Reason.ABSENT);
        if (ranges instanceof ByteRanges.Satisfiable satisfiable && satisfiable.isMultiple() && representation.format() != null) {
            ranges = new ByteRanges.Ignored(ByteRanges.Reason.MALFORMED);
        }
        List<FileContentWriter.Part> parts = new ArrayList<>();
        switch (ranges) {
            case ByteRanges.Unsatisfiable unsatisfiable -> {
                response.setStatus(HttpStatus.RANGE_NOT_SATISFIABLE_416);
                headers.remove(HttpHeader.CONTENT_TYPE);
                headers.remove(HttpHeader.CONTENT_ENCODING);
                headers.put(HttpHeader.CONTENT_RANGE, unsatisfiable.contentRange());
                response.write(true, null, callback);
                return;
            }
            case ByteRanges.Satisfiable satisfiable when !satisfiable.isMultiple() -> {
                ByteRange range = satisfiable.ranges().get(0);
                response.setStatus(HttpStatus.PARTIAL_CONTENT_206);
                headers.put(HttpHeader.CONTENT_RANGE, range.toContentRange(length));
                headers.put(HttpHeader.CONTENT_LENGTH, range.length());
                parts.add(new FileContentWriter.Part.Region(range.first(), range.length()));
            }
            case ByteRanges.Satisfiable satisfiable -> {
                MultiPartByteRanges multiPart = new MultiPartByteRanges(MultiPartByteRanges.newBoundary(), contentType, length);
                response.setStatus(HttpStatus.PARTIAL_CONTENT_206);
                headers.put(HttpHeader.CONTENT_TYPE, multiPart.contentType());
                headers.put(HttpHeader.CONTENT_LENGTH, multiPart.contentLength(satisfiable.ranges()));
                for (ByteRange range : satisfiable.ranges()) {
                    parts.add(new FileContentWriter.Part.Bytes(multiPart.partHeader(range)));
                    parts.add(new FileContentWriter.Part.Region(range.first(), range.length()));
                }
                parts.add(new FileContentWriter.Part.Bytes(multiPart.closingDelimiter()));
            }
            case ByteRanges.Ignored ignored -> {
                headers.put(HttpHeader.CONTENT_LENGTH, length);
                parts.add(new FileContentWriter.Part.Region(0, length));
            }
        }
        if (HttpMethod.HEAD.is(method)) {
            response.write(true, null, callback);
            return;
        }
        SeekableByteChannel channel;
        try {
            channel = file.open();
        } catch (NoSuchFileException vanished) {
            Response.writeError(request, response, callback, HttpStatus.NOT_FOUND_404, null);
            return;
        }
        new FileContentWriter(request, response, callback, channel, parts,
                request.getConnectionMetaData().getConnector().getByteBufferPool(), bufferSize, mappingThreshold).iterate();
    }

    /** Picks the original or a precompressed variant by the request's Accept-Encoding. */
    private Representation choose(ResourceBase current, Request request, String path, Resource original) throws IOException {
        List<PrecompressedFormat> formats = precompressedFormats;
        if (formats.isEmpty()) {
            return new Representation(original, null, false);
        }
        List<PrecompressedFormat> present = new ArrayList<>(formats.size());
        List<Resource> variants = new ArrayList<>(formats.size());
        for (PrecompressedFormat format : formats) {
            if (current.lookup(path + format.extension(), followSymlinks, aliasChecker) instanceof ResourceBase.Lookup.Found found
                    && !found.resource().directory() && found.resource().lastModified() >= original.lastModified()) {
                present.add(format);
                variants.add(found.resource());
            }
        }
        if (present.isEmpty()) {
            return new Representation(original, null, false);
        }
        List<String> codings = new ArrayList<>(present.size());
        for (PrecompressedFormat format : present) {
            codings.add(format.coding());
        }
        int index = codings.indexOf(AcceptEncoding.of(request.getHeaders()).choose(codings));
        if (index < 0) {
            return new Representation(original, null, true);
        }
        return new Representation(variants.get(index), present.get(index), true);
    }

    /** @return the media type of the file named by {@code path}, with a charset for text; octet-stream when unknown */
    private String contentTypeOf(String path) {
        MimeTypes types = mimeTypes;
        String type = types.getMimeByExtension(path);
        if (type == null) {
            return "application/octet-stream";
        }
        if (MimeTypes.getCharsetFromContentType(type) == null) {
            String charset = types.getCharsetInferredFromType(type);
            if (charset != null) {
                return type + ";charset=" + charset;
            }
        }
        return type;
    }

    /** @return whether symbolic links that stay under the base are served (default false) */
    public boolean isFollowSymlinks() {
        return followSymlinks;
    }

    /**
     * Serves files reached through symbolic links whose targets lie under the base's real path.
     * Links leading out of the base stay refused unless the {@link #setAliasChecker alias
     * checker} allows them.
     */
    public void setFollowSymlinks(boolean followSymlinks) {
        this.followSymlinks = followSymlinks;
    }

    /** @return the checker asked about aliases, or null (the default: none is served) */
    public AliasChecker getAliasChecker() {
        return aliasChecker;
    }

    public void setAliasChecker(AliasChecker aliasChecker) {
        this.aliasChecker = aliasChecker;
    }

    /** @return the names tried, in order, for a directory request (default {@code index.html}) */
    public List<String> getWelcomeFiles() {
        return welcomeFiles;
    }

    /** @throws IllegalArgumentException when a name is empty or holds a {@code /} */
    public void setWelcomeFiles(List<String> welcomeFiles) {
        for (String name : welcomeFiles) {
            if (name.isEmpty() || name.indexOf('/') >= 0) {
                throw new IllegalArgumentException("a welcome file is a plain file name, not '" + name + "'");
            }
        }
        this.welcomeFiles = List.copyOf(welcomeFiles);
    }

    /** @return whether directories without a welcome file are listed (default false: 403) */
    public boolean isDirectoriesListed() {
        return directoriesListed;
    }

    public void setDirectoriesListed(boolean directoriesListed) {
        this.directoriesListed = directoriesListed;
    }

    /** @return the most entries a listing shows (default 10,000); larger directories are cut short */
    public int getMaxListedEntries() {
        return maxListedEntries;
    }

    /** @throws IllegalArgumentException when not positive */
    public void setMaxListedEntries(int maxListedEntries) {
        if (maxListedEntries < 1) {
            throw new IllegalArgumentException("maxListedEntries must be positive: " + maxListedEntries);
        }
        this.maxListedEntries = maxListedEntries;
    }

    /** @return the content codings served from precompressed files, in the server's order of preference */
    public List<String> getPrecompressedFormats() {
        return precompressedFormats.stream().map(PrecompressedFormat::coding).toList();
    }

    /**
     * @param codings content codings among {@code br}, {@code gzip} and {@code zstd}, the
     *     preferred first (default {@code br, gzip}); empty to serve originals only
     * @throws IllegalArgumentException for another coding
     */
    public void setPrecompressedFormats(List<String> codings) {
        this.precompressedFormats = codings.stream().map(PrecompressedFormat::ofCoding).distinct().toList();
    }

    /** @return the Cache-Control value sent with files and 304s, or null (the default: none) */
    public String getCacheControl() {
        return cacheControl;
    }

    /** @param cacheControl a value such as {@code max-age=3600, public}, or null for none */
    public void setCacheControl(String cacheControl) {
        this.cacheControl = cacheControl;
    }

    /** @return whether ETags are sent and compared (default true) */
    public boolean isEtags() {
        return etags;
    }

    public void setEtags(boolean etags) {
        this.etags = etags;
    }

    /** @return whether ETags are weak (default false: strong, so If-Range can resume downloads) */
    public boolean isWeakEtags() {
        return weakEtags;
    }

    public void setWeakEtags(boolean weakEtags) {
        this.weakEtags = weakEtags;
    }

    /** @return the size of the pooled buffers files are read into (default 32 KiB) */
    public int getBufferSize() {
        return bufferSize;
    }

    /** @throws IllegalArgumentException when below 512 bytes or above 16 MiB */
    public void setBufferSize(int bufferSize) {
        if (bufferSize < 512 || bufferSize > 16 * 1024 * 1024) {
            throw new IllegalArgumentException("bufferSize must be 512 bytes to 16 MiB: " + bufferSize);
        }
        this.bufferSize = bufferSize;
    }

    /** @return the size from which a file region is memory-mapped rather than read (default 1 MiB) */
    public long getMappingThreshold() {
        return mappingThreshold;
    }

    /** @param mappingThreshold a size in bytes; {@link Long#MAX_VALUE} never maps */
    public void setMappingThreshold(long mappingThreshold) {
        if (mappingThreshold < 1) {
            throw new IllegalArgumentException("mappingThreshold must be positive: " + mappingThreshold);
        }
        this.mappingThreshold = mappingThreshold;
    }

    /** @return the table that gives a file's Content-Type by extension */
    public MimeTypes getMimeTypes() {
        return mimeTypes;
    }

    public void setMimeTypes(MimeTypes mimeTypes) {
        this.mimeTypes = Objects.requireNonNull(mimeTypes, "mimeTypes");
    }

    /** @return the bounds on Range fields (default {@link ByteRanges.Limits#DEFAULT}) */
    public ByteRanges.Limits getRangeLimits() {
        return rangeLimits;
    }

    public void setRangeLimits(ByteRanges.Limits rangeLimits) {
        this.rangeLimits = Objects.requireNonNull(rangeLimits, "rangeLimits");
    }

    @Override
    public String toString() {
        ResourceBase current = base;
        String where = current != null ? current.toString() : baseDirectory != null ? baseDirectory.toString() : "classpath:" + classPathPrefix;
        return "ResourceHandler[" + where + "]";
    }
}
