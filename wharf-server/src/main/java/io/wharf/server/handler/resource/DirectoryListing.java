package io.wharf.server.handler.resource;

import java.util.List;

import io.wharf.http.HttpDateFormat;
import io.wharf.http.UriPath;
import io.wharf.server.ErrorHandler;

/**
 * Renders the HTML page that lists a directory: one row per entry with its name as a link,
 * its size and its last-modified date, in the order given (a {@link Resource#list} is sorted
 * by name). Every name is percent-encoded where it is part of a link and HTML-escaped
 * wherever it is shown, so a file named {@code <script>.txt} is text, never markup; links are
 * absolute paths, so a name such as {@code javascript:x} cannot read as a scheme.
 *
 * <p>Stateless; called by a {@link ResourceHandler} on the thread handling the request.
 */
final class DirectoryListing {

    private DirectoryListing() {
    }

    /**
     * @param directoryPath the directory's path as the client sees it (context path included),
     *     decoded and ending with {@code /}
     * @param entries the entries to show
     * @param truncated whether the directory holds more entries than shown
     * @return the page
     */
    static String render(String directoryPath, List<Resource> entries, boolean truncated) {
        String title = ErrorHandler.escapeHtml("Index of " + directoryPath);
        StringBuilder page = new StringBuilder(512 + entries.size() * 160);
        page.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>").append(title)
                .append("</title></head>\n<body><h1>").append(title).append("</h1>\n")
                .append("<table>\n<tr><th>Name</th><th>Size</th><th>Last modified</th></tr>\n");
        if (!directoryPath.equals("/")) {
            String parent = directoryPath.substring(0, directoryPath.lastIndexOf('/', directoryPath.length() - 2) + 1);
            page.append("<tr><td><a href=\"").append(link(parent)).append("\">../</a></td><td></td><td></td></tr>\n");
        }
        for (Resource entry : entries) {
            String name = entry.directory() ? entry.name() + "/" : entry.name();
            String link;
            try {
                link = link(directoryPath + name);
            } catch (IllegalArgumentException unencodable) {
                continue; // A name with an unpaired surrogate has no URI form: not listed.
            }
            page.append("<tr><td><a href=\"").append(link).append("\">")
                    .append(ErrorHandler.escapeHtml(name)).append("</a></td><td>")
                    .append(entry.directory() ? "-" : Long.toString(entry.length())).append("</td><td>")
                    .append(HttpDateFormat.format(entry.lastModified())).append("</td></tr>\n");
        }
        page.append("</table>\n");
        if (truncated) {
            page.append("<p>More entries are not shown.</p>\n");
        }
        return page.append("</body></html>\n").toString();
    }

    /** @return the path percent-encoded for a URI, then escaped for an HTML attribute */
    private static String link(String path) {
        return ErrorHandler.escapeHtml(UriPath.encodePath(path));
    }
}
