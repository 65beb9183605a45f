package io.wharf.server.handler.push;

import java.util.Locale;
import java.util.Objects;

/**
 * A sub-resource a {@link PushStrategy} expects a page to need: its path (with its query, as
 * the browser asked for it) and the kind of resource it is, which {@code Link: rel=preload}
 * must name ({@code as=style}, {@code script}, {@code image}, {@code font}, or {@code fetch}
 * when the extension tells nothing).
 *
 * @param pathQuery the absolute path and query, e.g. {@code /css/site.css?v=3}
 * @param as the preload destination
 */
public record PushResource(String pathQuery, String as) {

    public PushResource {
        Objects.requireNonNull(pathQuery, "pathQuery");
        Objects.requireNonNull(as, "as");
        if (!pathQuery.startsWith("/")) {
            throw new IllegalArgumentException("not an absolute path: " + pathQuery);
        }
    }

    /** @return the resource at {@code pathQuery}, of the kind its extension says */
    public static PushResource of(String pathQuery) {
        return new PushResource(pathQuery, destinationOf(pathQuery));
    }

    /**
     * @return the {@code Link} field value that asks a browser to preload this resource; fonts
     *     carry {@code crossorigin}, which browsers require to use a preloaded font
     */
    public String asLinkValue() {
        String link = "<" + pathQuery + ">; rel=preload; as=" + as;
        return as.equals("font") ? link + "; crossorigin" : link;
    }

    private static String destinationOf(String pathQuery) {
        int query = pathQuery.indexOf('?');
        String path = (query < 0 ? pathQuery : pathQuery.substring(0, query)).toLowerCase(Locale.ROOT);
        int dot = path.lastIndexOf('.');
        String extension = dot < 0 || dot < path.lastIndexOf('/') ? "" : path.substring(dot + 1);
        return switch (extension) {
            case "css" -> "style";
            case "js", "mjs" -> "script";
            case "png", "jpg", "jpeg", "gif", "webp", "avif", "svg", "ico" -> "image";
            case "woff", "woff2", "ttf", "otf" -> "font";
            default -> "fetch";
        };
    }
}
