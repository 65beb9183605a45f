package io.wharf.servlet.internal;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.wharf.http.form.FormFields;
import io.wharf.http.form.FormLimits;
import io.wharf.http.form.UrlEncodedParser;

/**
 * The parameters of a servlet request (Servlet 6.1 section 3.1): the query's fields, then the
 * body's, merged by name with the query's values first. Immutable once made.
 */
final class RequestParameters {

    static final RequestParameters NONE = new RequestParameters(Map.of());

    private final Map<String, String[]> values;

    private RequestParameters(Map<String, String[]> values) {
        this.values = values;
    }

    /**
     * @param query the raw query, or null; decoded as UTF-8 (the URI's charset, RFC 3986)
     * @param body the body's fields, or null
     */
    static RequestParameters of(String query, FormFields body, FormLimits limits) {
        Map<String, List<String>> merged = new LinkedHashMap<>();
        if (query != null && !query.isEmpty()) {
            addAll(merged, UrlEncodedParser.decodeQuery(query, StandardCharsets.UTF_8, limits));
        }
        if (body != null) {
            addAll(merged, body);
        }
        return ofLists(merged);
    }

    /** @return these parameters with {@code first} in front of each name's values (a dispatch's query, section 9.1.1) */
    RequestParameters withFirst(String query, Charset charset, FormLimits limits) {
        if (query == null || query.isEmpty()) {
            return this;
        }
        Map<String, List<String>> merged = new LinkedHashMap<>();
        addAll(merged, UrlEncodedParser.decodeQuery(query, charset, limits));
        for (Map.Entry<String, String[]> entry : values.entrySet()) {
            merged.computeIfAbsent(entry.getKey(), name -> new ArrayList<>()).addAll(List.of(entry.getValue()));
        }
        return ofLists(merged);
    }

    /** @return parameters holding {@code map}'s, in its order */
    static RequestParameters of(Map<String, String[]> map) {
        if (map.isEmpty()) {
            return NONE;
        }
        Map<String, String[]> values = new LinkedHashMap<>();
        for (Map.Entry<String, String[]> entry : map.entrySet()) {
            values.put(entry.getKey(), entry.getValue().clone());
        }
        return new RequestParameters(Collections.unmodifiableMap(values));
    }

    private static void addAll(Map<String, List<String>> merged, FormFields fields) {
        for (String name : fields.getNames()) {
            merged.computeIfAbsent(name, key -> new ArrayList<>()).addAll(fields.getValues(name));
        }
    }

    private static RequestParameters ofLists(Map<String, List<String>> merged) {
        if (merged.isEmpty()) {
            return NONE;
        }
        Map<String, String[]> values = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> entry : merged.entrySet()) {
            values.put(entry.getKey(), entry.getValue().toArray(String[]::new));
        }
        return new RequestParameters(Collections.unmodifiableMap(values));
    }

    String get(String name) {
        String[] found = values.get(name);
        return found == null || found.length == 0 ? null : found[0];
    }

    String[] getValues(String name) {
        String[] found = values.get(name);
        return found == null ? null : found.clone();
    }

    /** @return an unmodifiable map; its arrays are copies the caller may change */
    Map<String, String[]> asMap() {
        Map<String, String[]> copy = new LinkedHashMap<>();
        for (Map.Entry<String, String[]> entry : values.entrySet()) {
            copy.put(entry.getKey(), entry.getValue().clone());
        }
        return Collections.unmodifiableMap(copy);
    }

    java.util.Enumeration<String> names() {
        return Collections.enumeration(values.keySet());
    }
}
