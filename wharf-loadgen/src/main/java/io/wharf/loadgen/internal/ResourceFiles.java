package io.wharf.loadgen.internal;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.wharf.http.FieldSyntax;
import io.wharf.http.HttpField;
import io.wharf.loadgen.Resource;

/**
 * Reads resource trees from JSON text: either Wharf's own form,
 * <pre>{@code {"path": "/index.html", "children": [{"path": "/style.css"}, {"path": "/app.js", "children": [...]}]}}</pre>
 * or an HTTP Archive (HAR 1.2) a browser saved, whose first page becomes the tree: its first
 * entry is the root, and each later entry of that page hangs under the entry that initiated it
 * (Chromium's {@code _initiator.url}) when that one is in the page, else under the root; each
 * distinct method and URL once, with the entry's method, content ({@code postData}) and header
 * fields (less those the client writes itself).
 * Same-origin URLs become paths, others stay absolute. Stateless; any thread. Bad input fails
 * with an {@link IllegalArgumentException} naming what is wrong.
 */
public final class ResourceFiles {

    /** The fields, lower case, that the client writes for each request and a HAR entry's own do not replace. */
    private static final Set<String> CLIENT_WRITES = Set.of("host", "content-type", "content-length", "transfer-encoding",
            "connection", "keep-alive", "proxy-connection", "upgrade", "te", "http2-settings");

    private ResourceFiles() {
    }

    /** @return the tree {@code json} describes, in Wharf's form or as a HAR file */
    public static Resource read(String json) {
        Object value = JsonReader.read(json);
        if (value instanceof Map<?, ?> map && map.containsKey("log")) {
            return fromHar(object(map.get("log"), "log"));
        }
        return fromTree(object(value, "the resource tree"), "the resource tree");
    }

    private static Resource fromTree(Map<?, ?> node, String where) {
        if (!(node.get("path") instanceof String path) || path.isEmpty()) {
            throw new IllegalArgumentException(where + " has no \"path\" string");
        }
        List<Resource> children = new ArrayList<>();
        Object list = node.get("children");
        if (list != null) {
            List<?> items = array(list, where + ".children");
            for (int i = 0; i < items.size(); i++) {
                children.add(fromTree(object(items.get(i), where + ".children[" + i + "]"), path + " child " + i));
            }
        }
        return new Resource(path, children);
    }

    private static Resource fromHar(Map<?, ?> log) {
        List<?> entries = array(log.get("entries"), "log.entries");
        if (entries.isEmpty()) {
            throw new IllegalArgumentException("the HAR file has no entries");
        }
        Object page = object(entries.get(0), "log.entries[0]").get("pageref");
        // Each distinct method and URL of the page once, in order, as "METHOD url".
        Map<String, HarEntry> byKey = new LinkedHashMap<>();
        for (int i = 0; i < entries.size(); i++) {
            String where = "log.entries[" + i + "]";
            Map<?, ?> entry = object(entries.get(i), where);
            if (page != null && !page.equals(entry.get("pageref"))) {
                continue;
            }
            Map<?, ?> request = object(entry.get("request"), where + ".request");
            if (!(request.get("url") instanceof String url)) {
                throw new IllegalArgumentException(where + ".request has no url");
            }
            Resource.Request own = request(request, where + ".request");
            String initiator = entry.get("_initiator") instanceof Map<?, ?> by && by.get("url") instanceof String parent ? parent : null;
            byKey.putIfAbsent(own.method() + " " + url, new HarEntry(url, own, initiator));
        }
        List<String> keys = new ArrayList<>(byKey.keySet());
        String rootKey = keys.get(0);
        URI root = URI.create(byKey.get(rootKey).url());
        Map<String, List<String>> children = new LinkedHashMap<>();
        for (String key : keys.subList(1, keys.size())) {
            HarEntry entry = byKey.get(key);
            // The initiator is a document or script: the first entry of its URL in the page.
            String parent = keys.stream().filter(other -> !other.equals(key) && byKey.get(other).url().equals(entry.initiator()))
                    .findFirst().orElse(rootKey);
            children.computeIfAbsent(parent, ignored -> new ArrayList<>()).add(key);
        }
        return build(rootKey, byKey, root, children, 0);
    }

    /** One distinct request of a HAR page: its URL, method and content, and the URL of what initiated it (or null). */
    private record HarEntry(String url, Resource.Request request, String initiator) {
    }

    /** @return the method and content of a HAR request: {@code postData.text}, or its urlencoded {@code params} */
    private static Resource.Request request(Map<?, ?> request, String where) {
        if (!(request.get("method") instanceof String method) || method.isEmpty() || !method.chars().allMatch(FieldSyntax::isTokenOctet)) {
            throw new IllegalArgumentException(where + " has no method that is an HTTP token: " + request.get("method"));
        }
        List<HttpField> fields = fields(request.get("headers"), where + ".headers");
        if (request.get("postData") == null) {
            return new Resource.Request(method, new byte[0], "", fields);
        }
        Map<?, ?> postData = object(request.get("postData"), where + ".postData");
        String type = postData.get("mimeType") instanceof String mimeType && !mimeType.isEmpty() ? mimeType : "application/octet-stream";
        if (postData.get("text") instanceof String text) {
            return new Resource.Request(method, text.getBytes(StandardCharsets.UTF_8), type, fields);
        }
        if (postData.get("params") == null) {
            return new Resource.Request(method, new byte[0], "", fields);
        }
        if (!type.toLowerCase(Locale.ROOT).startsWith("application/x-www-form-urlencoded")) {
            throw new IllegalArgumentException(where + ".postData has params but no text, and only urlencoded params can be"
                    + " sent again (its mimeType is " + type + ")");
        }
        StringBuilder form = new StringBuilder();
        for (Object item : array(postData.get("params"), where + ".postData.params")) {
            Map<?, ?> param = object(item, where + ".postData.params[]");
            if (!(param.get("name") instanceof String name)) {
                throw new IllegalArgumentException(where + ".postData.params has a parameter without a name");
            }
            String value = param.get("value") instanceof String text ? text : "";
            form.append(form.isEmpty() ? "" : "&").append(URLEncoder.encode(name, StandardCharsets.UTF_8)).append('=')
                    .append(URLEncoder.encode(value, StandardCharsets.UTF_8));
        }
        return new Resource.Request(method, form.toString().getBytes(StandardCharsets.UTF_8), type, fields);
    }

    /**
     * @return a HAR request's header fields, in order, less those the client writes itself:
     *     pseudo-header fields, Host, Content-Type (the entry's {@code postData} has it),
     *     the framing fields and the connection's own
     */
    private static List<HttpField> fields(Object headers, String where) {
        if (headers == null) {
            return List.of();
        }
        List<?> items = array(headers, where);
        List<HttpField> fields = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            Map<?, ?> header = object(items.get(i), where + "[" + i + "]");
            if (!(header.get("name") instanceof String name)) {
                throw new IllegalArgumentException(where + "[" + i + "] has no name string");
            }
            if (name.startsWith(":") || CLIENT_WRITES.contains(name.toLowerCase(Locale.ROOT))) {
                continue;
            }
            if (name.isEmpty() || !name.chars().allMatch(FieldSyntax::isTokenOctet)) {
                throw new IllegalArgumentException(where + "[" + i + "] has a name that is not an HTTP token: " + name);
            }
            if (!(header.get("value") instanceof String value)) {
                throw new IllegalArgumentException(where + "[" + i + "] (" + name + ") has no value string");
            }
            if (!value.chars().allMatch(c -> c < 256 && FieldSyntax.isValueOctet(c))) {
                throw new IllegalArgumentException(where + "[" + i + "] (" + name + ") has a value with a character a field"
                        + " value cannot hold");
            }
            fields.add(new HttpField(name, value));
        }
        return fields;
    }

    private static Resource build(String key, Map<String, HarEntry> byKey, URI root, Map<String, List<String>> children, int depth) {
        List<Resource> below = new ArrayList<>();
        if (depth < 64) {
            for (String child : children.getOrDefault(key, List.of())) {
                below.add(build(child, byKey, root, children, depth + 1));
            }
        }
        HarEntry entry = byKey.get(key);
        return new Resource(pathOf(URI.create(entry.url()), root), Optional.of(entry.request()), below);
    }

    /** @return the path and query of {@code url} when it has {@code root}'s origin, else {@code url} whole */
    private static String pathOf(URI url, URI root) {
        boolean sameOrigin = url.getScheme().equalsIgnoreCase(root.getScheme()) && url.getHost().equalsIgnoreCase(root.getHost())
                && url.getPort() == root.getPort();
        if (!sameOrigin) {
            return url.toString();
        }
        String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
        return url.getRawQuery() == null ? path : path + "?" + url.getRawQuery();
    }

    private static Map<?, ?> object(Object value, String where) {
        if (value instanceof Map<?, ?> map) {
            return map;
        }
        throw new IllegalArgumentException(where + " is not a JSON object");
    }

    private static List<?> array(Object value, String where) {
        if (value instanceof List<?> list) {
            return list;
        }
        throw new IllegalArgumentException(where + " is not a JSON array");
    }
}
