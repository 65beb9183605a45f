package io.wharf.server.handler.gzip;

import java.util.ArrayList;
import java.util.List;

import io.wharf.http.BadMessageException;
import io.wharf.http.EntityTag;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.io.Content;
import io.wharf.server.Request;

/**
 * The request a {@link GzipHandler}'s child sees: the same request, with the {@code --gzip}
 * suffix stripped from the entity tags of {@code If-None-Match} and {@code If-Match} when the
 * client accepts gzip, and — when its content is gzip and inflation is on — without
 * {@code Content-Encoding} and {@code Content-Length}, its content read through an
 * {@link InflatedContent}.
 *
 * <p><b>Threads.</b> Made by the handler on the thread that handles; read by one thread at a
 * time as {@link Request} says. The handler {@link #close() closes} it when the child's
 * callback completes. <b>Buffers.</b> Chunks read from it belong to the reader, as with any
 * request; see {@link InflatedContent}.
 */
final class GzipRequest extends Request.Wrapper {

    private static final String GZIP_SUFFIX = EntityTag.VARIANT_SEPARATOR + "gzip";

    private final InflatedContent content;
    private final HttpFields headers;
    private final boolean conditionalOnGzipVariant;

    /**
     * @param acceptsGzip whether the client accepts gzip, so that its conditional tags may name the variant
     * @param content the inflating source over {@code wrapped}'s content, or null to read it as it is
     */
    GzipRequest(Request wrapped, boolean acceptsGzip, InflatedContent content) {
        super(wrapped);
        this.content = content;
        HttpFields original = wrapped.getHeaders();
        HttpFields.Mutable rewritten = null;
        boolean variant = false;
        if (acceptsGzip) {
            for (HttpHeader conditional : List.of(HttpHeader.IF_NONE_MATCH, HttpHeader.IF_MATCH)) {
                String value = stripVariant(original.getValuesList(conditional));
                if (value != null) {
                    rewritten = rewritten != null ? rewritten : HttpFields.build(original);
                    rewritten.put(conditional, value);
                    variant = true;
                }
            }
        }
        if (content != null) {
            rewritten = rewritten != null ? rewritten : HttpFields.build(original);
            rewritten.remove(HttpHeader.CONTENT_ENCODING);
            rewritten.remove(HttpHeader.CONTENT_LENGTH);
        }
        this.headers = rewritten != null ? rewritten.asImmutable() : original;
        this.conditionalOnGzipVariant = variant;
    }

    /**
     * @return the field value with {@code --gzip} stripped from every tag that has it, or null
     *     when no tag has it, the field is absent or {@code *}, or a value is malformed (left
     *     for the child to judge)
     */
    private static String stripVariant(List<String> values) {
        if (values.isEmpty()) {
            return null;
        }
        List<String> tags = new ArrayList<>();
        boolean stripped = false;
        for (String value : values) {
            if (EntityTag.isAny(value)) {
                return null;
            }
            List<EntityTag> parsed;
            try {
                parsed = EntityTag.parseList(value);
            } catch (IllegalArgumentException malformed) {
                return null;
            }
            for (EntityTag tag : parsed) {
                String opaque = tag.opaque();
                if (opaque.endsWith(GZIP_SUFFIX)) {
                    tag = new EntityTag(opaque.substring(0, opaque.length() - GZIP_SUFFIX.length()), tag.weak());
                    stripped = true;
                }
                tags.add(tag.asString());
            }
        }
        return stripped ? String.join(", ", tags) : null;
    }

    /** @return whether a conditional field named the gzip variant (and was rewritten) */
    boolean isConditionalOnGzipVariant() {
        return conditionalOnGzipVariant;
    }

    /** @return the failure that inflating the content ended with (413, 400), or null */
    BadMessageException getContentFailure() {
        return content == null ? null : content.getFailure();
    }

    /** Gives back what inflating holds: the inflater and any unread compressed chunk. */
    void close() {
        if (content != null) {
            content.close();
        }
    }

    @Override
    public HttpFields getHeaders() {
        return headers;
    }

    @Override
    public Content.Chunk read() {
        return content != null ? content.read() : super.read();
    }

    @Override
    public void demand(Runnable onContentAvailable) {
        if (content != null) {
            content.demand(onContentAvailable);
        } else {
            super.demand(onContentAvailable);
        }
    }

    @Override
    public void fail(Throwable cause) {
        if (content != null) {
            content.fail(cause);
        } else {
            super.fail(cause);
        }
    }

    @Override
    public long getLength() {
        return content != null ? -1 : super.getLength();
    }
}
