package io.wharf.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.wharf.http.internal.MediaTypeParameters;
import io.wharf.util.Index;

/**
 * Media types of files and the helpers a server needs around {@code Content-Type}: which type
 * a file extension stands for, which charset a type implies when none is stated, what the
 * base type and the charset of a {@code Content-Type} value are, and whether a type is worth
 * compressing. The {@link Type} enum holds the common content types with their pre-encoded
 * {@code Content-Type} fields.
 *
 * <p><b>Instances and threads.</b> {@link #DEFAULT} is immutable and shared; its table comes
 * from the resources {@code io/wharf/http/mime-types.properties} (extension to type) and
 * {@code mime-charsets.properties} (type to implied charset) beside this class. A context
 * that needs its own mappings makes a {@link Mutable} copy, configures it, then reads it from
 * any number of request threads; its maps are concurrent, so a change made while requests run
 * is seen by later lookups, never as a torn table. The static helpers keep no state. No method
 * touches a buffer.
 *
 * <p><b>Input.</b> Every helper reads its argument once, in time linear in its length and
 * without regular expressions, and answers null for what it cannot read rather than throwing;
 * only the {@link Mutable} setters, which take configuration rather than peer input, throw
 * {@link IllegalArgumentException} for a malformed extension or type.
 */
public sealed class MimeTypes permits MimeTypes.Mutable {

    /** The built-in table, immutable. */
    public static final MimeTypes DEFAULT = new MimeTypes(
            load("mime-types.properties"), load("mime-charsets.properties"), Map.of());

    private static final String UTF_8 = "utf-8";
    /** Types a compressor should leave alone although their family usually compresses well. */
    private static final Set<String> INCOMPRESSIBLE = Set.of("text/event-stream");
    /** Types outside text/*, +json and +xml that compress well. */
    private static final Set<String> COMPRESSIBLE = Set.of(
            "application/json", "application/javascript", "application/x-javascript", "application/xml",
            "application/wasm", "application/yaml", "application/toml", "application/rtf",
            "application/vnd.ms-fontobject", "font/ttf", "font/otf", "image/x-icon",
            "image/vnd.microsoft.icon", "image/bmp", "application/x-tar");

    /** Extension in lower case to media type. */
    final Map<String, String> types;
    /** Base type in lower case to implied charset in lower case; empty for none. */
    final Map<String, String> charsets;
    /** Base type in lower case to a compressibility decided by configuration. */
    final Map<String, Boolean> compressible;

    private MimeTypes(Map<String, String> types, Map<String, String> charsets, Map<String, Boolean> compressible) {
        this.types = types;
        this.charsets = charsets;
        this.compressible = compressible;
    }

    /**
     * @param fileNameOrPath a file name or a path with {@code /} separators, such as a request
     *     path; only what follows its last dot after its last slash is read
     * @return the media type of the extension, compared without ASCII case, or null when the
     *     name has no extension or the extension is not mapped
     */
    public String getMimeByExtension(String fileNameOrPath) {
        if (fileNameOrPath == null) {
            return null;
        }
        int dot = fileNameOrPath.lastIndexOf('.');
        if (dot < 0 || dot == fileNameOrPath.length() - 1 || fileNameOrPath.indexOf('/', dot) >= 0) {
            return null;
        }
        return types.get(fileNameOrPath.substring(dot + 1).toLowerCase(Locale.ROOT));
    }

    /** @return every mapping, extension (lower case) to media type; an unmodifiable snapshot */
    public Map<String, String> getMimeMap() {
        return Map.copyOf(types);
    }

    /**
     * @param type a media type, with or without parameters (which are ignored)
     * @return the charset, in lower case, that content of the type is taken to have when its
     *     {@code Content-Type} states none: the table's entry, else {@code utf-8} for every
     *     {@code text/*} type, else null; use {@link #getCharsetFromContentType} first for the
     *     stated one
     */
    public String getCharsetInferredFromType(String type) {
        String baseType = getBaseType(type);
        if (baseType == null) {
            return null;
        }
        String charset = charsets.get(baseType);
        if (charset != null) {
            return charset.isEmpty() ? null : charset;
        }
        return baseType.startsWith("text/") ? UTF_8 : null;
    }

    /**
     * Tells a compressing handler whether to compress content of a type: yes for text (but not
     * {@code text/event-stream}, which must reach the client as it is written), JSON, JavaScript,
     * XML, any {@code +json} or {@code +xml} type such as SVG, WebAssembly, uncompressed fonts,
     * icons and bitmaps; no for everything else, including images, audio, video and archives
     * that are compressed already. A {@link Mutable} may decide otherwise per type.
     *
     * @param type a media type, with or without parameters
     */
    public boolean isCompressible(String type) {
        String baseType = getBaseType(type);
        if (baseType == null) {
            return false;
        }
        Boolean configured = compressible.get(baseType);
        if (configured != null) {
            return configured;
        }
        if (INCOMPRESSIBLE.contains(baseType)) {
            return false;
        }
        return baseType.startsWith("text/") || baseType.endsWith("+json") || baseType.endsWith("+xml")
                || COMPRESSIBLE.contains(baseType);
    }

    /**
     * @param contentType a {@code Content-Type} value such as {@code text/html; Charset="UTF-8"}
     * @return the value of its first well-formed {@code charset} parameter (name in any case,
     *     after any other parameters), unquoted and as written; null when there is none
     */
    public static String getCharsetFromContentType(String contentType) {
        return MediaTypeParameters.find(contentType, "charset");
    }

    /**
     * @param contentType a {@code Content-Type} value
     * @return the media type without parameters or surrounding blanks, in lower case, e.g.
     *     {@code text/html} for {@code Text/HTML; charset=utf-8}; null when null or empty
     */
    public static String getBaseType(String contentType) {
        if (contentType == null) {
            return null;
        }
        int end = contentType.indexOf(';');
        String base = (end < 0 ? contentType : contentType.substring(0, end)).strip();
        return base.isEmpty() ? null : base.toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + types.size() + " extensions]";
    }

    private static Map<String, String> load(String resource) {
        Properties properties = new Properties();
        try (InputStream input = MimeTypes.class.getResourceAsStream(resource)) {
            if (input == null) {
                throw new IllegalStateException("missing resource io/wharf/http/" + resource);
            }
            properties.load(input);
        } catch (IOException x) {
            throw new UncheckedIOException("cannot read resource io/wharf/http/" + resource, x);
        }
        Map<String, String> map = new HashMap<>();
        for (String key : properties.stringPropertyNames()) {
            map.put(key.strip().toLowerCase(Locale.ROOT), properties.getProperty(key).strip().toLowerCase(Locale.ROOT));
        }
        return Map.copyOf(map);
    }

    /**
     * The media types of one context: starts as a copy of another table and can change. Made
     * and configured by the thread setting up the context, then read by request threads; the
     * setters may also run while requests are served (see {@link MimeTypes}).
     */
    public static final class Mutable extends MimeTypes {

        /** A copy of {@link MimeTypes#DEFAULT}. */
        public Mutable() {
            this(DEFAULT);
        }

        /** A copy of {@code from}. */
        public Mutable(MimeTypes from) {
            super(new ConcurrentHashMap<>(from.types), new ConcurrentHashMap<>(from.charsets),
                    new ConcurrentHashMap<>(from.compressible));
        }

        /**
         * Maps an extension to a media type, replacing any earlier mapping.
         *
         * @param extension the extension, with or without its leading dot, in any case
         * @param type a media type such as {@code text/x-java} or {@code text/plain;charset=utf-8}
         * @return the type the extension mapped to before, or null
         * @throws IllegalArgumentException when the extension is empty or holds anything but
         *     token characters, or the type is not {@code token/token} optionally followed by
         *     parameters of visible characters
         */
        public String addMapping(String extension, String type) {
            return types.put(extensionKey(extension), checkedType(type));
        }

        /** @return the type {@code extension} (any case, dot optional) mapped to before, or null */
        public String removeMapping(String extension) {
            return types.remove(extensionKey(extension));
        }

        /**
         * Sets the charset content of a type is taken to have when none is stated.
         *
         * @param type a media type; its parameters are ignored
         * @param charset the charset name, or null for none (not even text's {@code utf-8})
         * @throws IllegalArgumentException when the type or the charset is malformed
         */
        public void setInferredCharset(String type, String charset) {
            String baseType = getBaseType(checkedType(type));
            if (charset == null) {
                charsets.put(baseType, "");
            } else if (MediaTypeParameters.isToken(charset, 0, charset.length())) {
                charsets.put(baseType, charset.toLowerCase(Locale.ROOT));
            } else {
                throw new IllegalArgumentException("charset must be a token: " + charset);
            }
        }

        /**
         * Decides, for this context, whether content of a type is compressed, overriding the
         * built-in rule of {@link #isCompressible}.
         *
         * @throws IllegalArgumentException when the type is malformed
         */
        public void setCompressible(String type, boolean compressible) {
            this.compressible.put(getBaseType(checkedType(type)), compressible);
        }

        private static String extensionKey(String extension) {
            String key = extension != null && extension.startsWith(".") ? extension.substring(1) : extension;
            if (key == null || !MediaTypeParameters.isToken(key, 0, key.length()) || key.indexOf('.') >= 0) {
                throw new IllegalArgumentException("an extension must be a token without dots: " + extension);
            }
            return key.toLowerCase(Locale.ROOT);
        }

        private static String checkedType(String type) {
            if (type == null) {
                throw new IllegalArgumentException("a media type is required");
            }
            String checked = type.strip();
            int slash = checked.indexOf('/');
            int semicolon = checked.indexOf(';');
            int end = semicolon < 0 ? checked.length() : semicolon;
            int subtypeEnd = end;
            while (subtypeEnd > slash + 1 && (checked.charAt(subtypeEnd - 1) == ' ' || checked.charAt(subtypeEnd - 1) == '\t')) {
                subtypeEnd--;
            }
            boolean valid = slash > 0 && slash < end
                    && MediaTypeParameters.isToken(checked, 0, slash)
                    && MediaTypeParameters.isToken(checked, slash + 1, subtypeEnd);
            for (int i = end; valid && i < checked.length(); i++) {
                char c = checked.charAt(i);
                valid = c >= 0x20 && c < 0x7F || c == '\t';
            }
            if (!valid) {
                throw new IllegalArgumentException("not a media type: " + type);
            }
            return checked;
        }
    }

    /**
     * The common content types, each with its {@code Content-Type} field encoded once.
     * Constants are immutable and shared by every thread.
     */
    public enum Type {
        APPLICATION_JSON("application/json"),
        APPLICATION_JSON_UTF_8("application/json;charset=utf-8", APPLICATION_JSON),
        APPLICATION_PROBLEM_JSON("application/problem+json"),
        APPLICATION_XML("application/xml"),
        APPLICATION_XML_UTF_8("application/xml;charset=utf-8", APPLICATION_XML),
        APPLICATION_OCTET_STREAM("application/octet-stream"),
        FORM_ENCODED("application/x-www-form-urlencoded"),
        MESSAGE_HTTP("message/http"),
        MULTIPART_BYTERANGES("multipart/byteranges"),
        MULTIPART_FORM_DATA("multipart/form-data"),
        TEXT_CSS("text/css"),
        TEXT_CSS_UTF_8("text/css;charset=utf-8", TEXT_CSS),
        TEXT_EVENT_STREAM("text/event-stream"),
        TEXT_HTML("text/html"),
        TEXT_HTML_8859_1("text/html;charset=iso-8859-1", TEXT_HTML),
        TEXT_HTML_UTF_8("text/html;charset=utf-8", TEXT_HTML),
        TEXT_JAVASCRIPT("text/javascript"),
        TEXT_JAVASCRIPT_UTF_8("text/javascript;charset=utf-8", TEXT_JAVASCRIPT),
        TEXT_PLAIN("text/plain"),
        TEXT_PLAIN_8859_1("text/plain;charset=iso-8859-1", TEXT_PLAIN),
        TEXT_PLAIN_UTF_8("text/plain;charset=utf-8", TEXT_PLAIN),
        TEXT_XML("text/xml"),
        TEXT_XML_UTF_8("text/xml;charset=utf-8", TEXT_XML);

        /**
         * Every constant by its string, and by the same string with a blank after the
         * semicolon, in any case.
         */
        private static final Index<Type> CACHE = index();

        private final String string;
        private final Type baseType;
        private final Charset charset;
        private final PreEncodedHttpField field;

        Type(String string) {
            this(string, null);
        }

        Type(String string, Type baseType) {
            this.string = string;
            this.baseType = baseType == null ? this : baseType;
            String charsetName = getCharsetFromContentType(string);
            this.charset = charsetName == null ? null : Charset.forName(charsetName);
            this.field = new PreEncodedHttpField(HttpHeader.CONTENT_TYPE, string);
        }

        /** @return the type as sent, e.g. {@code text/plain;charset=utf-8} */
        public String asString() {
            return string;
        }

        /** @return the type without its charset, e.g. {@link #TEXT_PLAIN} for {@link #TEXT_PLAIN_UTF_8}; itself when it has none */
        public Type getBaseType() {
            return baseType;
        }

        /** @return the charset the type states, or null when it states none */
        public Charset getCharset() {
            return charset;
        }

        /** @return the {@code Content-Type} field of this type, made once */
        public PreEncodedHttpField getContentTypeField() {
            return field;
        }

        /** @return whether {@code contentType} is this type, ignoring ASCII case */
        public boolean is(String contentType) {
            return string.equalsIgnoreCase(contentType);
        }

        /**
         * @return the constant written as {@code contentType} in any case, with or without a
         *     blank after the semicolon; null when it is not one of them
         */
        public static Type fromString(String contentType) {
            return contentType == null ? null : CACHE.get(contentType);
        }

        @Override
        public String toString() {
            return string;
        }

        private static Index<Type> index() {
            Index.Builder<Type> builder = Index.<Type>builder().caseSensitive(false);
            for (Type type : values()) {
                builder.with(type.string, type);
                if (type.string.indexOf(';') >= 0) {
                    builder.with(type.string.replace(";", "; "), type);
                }
            }
            return builder.build();
        }
    }
}
