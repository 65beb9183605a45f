package io.wharf.loadgen.internal;

import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.wharf.loadgen.Resource;

/**
 * Reads resource trees from JSON text: either Wharf's own form,
 * <pre>{@code {"path": "/index.html", "children": [{"path": "/style.css"}, {"path": "/app.js", "children": [...]}]}}</pre>
 * or an HTTP Archive (HAR 1.2) a browser saved, whose first page becomes the tree: its first
 * entry is the root, and each later entry of that page hangs under the entry that initiated it
 * (Chromium's {@code _initiator.url}) when that one is in the page, else under the root.
 * Same-origin URLs become paths, others stay absolute. Stateless; any thread. Bad input fails
 * with an {@link IllegalArgumentException} naming what is wrong.
 */
public final class ResourceFiles {

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
        List<String> urls = new ArrayList<>();
        Map<String, String> initiators = new LinkedHashMap<>();
        for (int i = 0; i < entries.size(); i++) {
            Map<?, ?> entry = object(entries.get(i), "log.entries[" + i + "]");
            if (page != null && !page.equals(entry.get("pageref"))) {
                continue;
            }
            Map<?, ?> request = object(entry.get("request"), "log.entries[" + i + "].request");
            if (!(request.get("url") instanceof String url)) {
                throw new IllegalArgumentException("log.entries[" + i + "].request has no url");
            }
            if (urls.contains(url)) {
                continue;
            }
            urls.add(url);
            if (entry.get("_initiator") instanceof Map<?, ?> initiator && initiator.get("url") instanceof String parent) {
                initiators.put(url, parent);
            }
        }
        URI root = URI.create(urls.get(0));
        Map<String, List<String>> children = new LinkedHashMap<>();
        for (String url : urls.subList(1, urls.size())) {
            String parent = initiators.get(url);
            if (parent == null || !urls.contains(parent) || parent.equals(url)) {
                parent = urls.get(0);
            }
            children.computeIfAbsent(parent, key -> new ArrayList<>()).add(url);
        }
        return build(urls.get(0), root, children, 0);
    }

    private static Resource build(String url, URI root, Map<String, List<String>> children, int depth) {
        List<Resource> below = new ArrayList<>();
        if (depth < 64) {
            for (String child : children.getOrDefault(url, List.of())) {
                below.add(build(child, root, children, depth + 1));
            }
        }
        return new Resource(pathOf(URI.create(url), root), below);
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
