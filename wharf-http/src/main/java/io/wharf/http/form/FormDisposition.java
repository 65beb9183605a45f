package io.wharf.http.form;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

import io.wharf.http.BadMessageException;
import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http.internal.PercentEncoding;

/**
 * The {@code Content-Disposition: form-data; name="..."; filename="..."} of one part
 * (RFC 7578 section 4.2). Exactly one such header is required, of type {@code form-data},
 * with a {@code name}. {@code filename*} (RFC 8187, UTF-8 or ISO-8859-1) wins over
 * {@code filename} when both are present; one in another charset is ignored.
 *
 * @param name the form field name
 * @param fileName the file name, or null when the part is a plain field
 */
record FormDisposition(String name, String fileName) {

    /**
     * @throws BadMessageException 400 when the header is missing, repeated or malformed
     */
    static FormDisposition of(HttpFields headers) {
        List<HttpField> dispositions = headers.getFields(HttpHeader.CONTENT_DISPOSITION);
        if (dispositions.isEmpty()) {
            throw new BadMessageException("multipart part without Content-Disposition");
        }
        if (dispositions.size() > 1) {
            throw new BadMessageException("multipart part with more than one Content-Disposition");
        }
        HeaderParameters disposition = HeaderParameters.parse(dispositions.get(0).getValue(), "Content-Disposition");
        if (!disposition.type().equals("form-data")) {
            throw new BadMessageException("multipart part Content-Disposition is not form-data");
        }
        String name = disposition.get("name");
        if (name == null) {
            throw new BadMessageException("multipart part Content-Disposition has no name");
        }
        String fileName = disposition.get("filename");
        String extendedFileName = disposition.get("filename*");
        if (extendedFileName != null) {
            String decoded = decodeExtendedValue(extendedFileName);
            if (decoded != null) {
                fileName = decoded;
            }
        }
        return new FormDisposition(name, fileName);
    }

    /**
     * @return the RFC 8187 ext-value {@code charset'language'percent-encoded} decoded, or null
     *     when its charset is neither UTF-8 nor ISO-8859-1
     */
    private static String decodeExtendedValue(String value) {
        int firstQuote = value.indexOf('\'');
        int secondQuote = firstQuote < 0 ? -1 : value.indexOf('\'', firstQuote + 1);
        if (secondQuote < 0) {
            throw new BadMessageException("bad filename* in Content-Disposition: no charset'language' prefix");
        }
        String charset = value.substring(0, firstQuote).toUpperCase(Locale.ROOT);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(value.length());
        for (int i = secondQuote + 1; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '%') {
                int high = i + 1 < value.length() ? PercentEncoding.hexValue(value.charAt(i + 1)) : -1;
                int low = i + 2 < value.length() ? PercentEncoding.hexValue(value.charAt(i + 2)) : -1;
                if (high < 0 || low < 0 || value.charAt(i + 1) > 0x7F || value.charAt(i + 2) > 0x7F) {
                    throw new BadMessageException("bad filename* in Content-Disposition: '%' must be followed by two hex digits");
                }
                bytes.write(high << 4 | low);
                i += 2;
            } else if (c > ' ' && c < 0x7F) {
                bytes.write(c);
            } else {
                throw new BadMessageException("bad filename* in Content-Disposition: a character must be percent-encoded");
            }
        }
        return switch (charset) {
            case "UTF-8" -> bytes.toString(StandardCharsets.UTF_8);
            case "ISO-8859-1" -> bytes.toString(StandardCharsets.ISO_8859_1);
            default -> null;
        };
    }
}
