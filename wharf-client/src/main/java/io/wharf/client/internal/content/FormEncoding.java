package io.wharf.client.internal.content;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import io.wharf.http.form.FormFields;

/**
 * Encodes names and values for a query string or an {@code application/x-www-form-urlencoded}
 * body, as UTF-8. Stateless; any thread.
 */
public final class FormEncoding {

    public static final String CONTENT_TYPE = "application/x-www-form-urlencoded";

    private FormEncoding() {
    }

    /** @return {@code name=value&...} in the order of the fields, each part form-encoded */
    public static String encode(FormFields fields) {
        StringBuilder out = new StringBuilder();
        for (Map.Entry<String, List<String>> entry : fields.asMap().entrySet()) {
            for (String value : entry.getValue()) {
                if (!out.isEmpty()) {
                    out.append('&');
                }
                out.append(URLEncoder.encode(entry.getKey(), StandardCharsets.UTF_8)).append('=')
                        .append(URLEncoder.encode(value, StandardCharsets.UTF_8));
            }
        }
        return out.toString();
    }

    /** @return {@code text} percent-encoded for a query component (a space as %20) */
    public static String encodeQueryComponent(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
