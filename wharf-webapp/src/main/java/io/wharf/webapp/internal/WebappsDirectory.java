package io.wharf.webapp.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * What a webapps directory holds, as context paths and their sources. A {@code .war} file or a
 * directory is one application; its name without {@code .war} gives the context path:
 * {@code ROOT} is {@code /}, {@code shop} is {@code /shop}, and {@code #} stands for {@code /}
 * ({@code shop#admin.war} is {@code /shop/admin}). Names starting with {@code .} and other files
 * are not applications.
 *
 * <p><b>A WAR and a directory of one name.</b> {@code shop.war} beside {@code shop/} counts
 * once, as the WAR: such a directory is usually the WAR unpacked by a tool or by another server,
 * and the WAR is what people replace to deploy. The directory is reported in {@link Listing#shadowed()}.
 * Called by the deployer on its thread.
 */
public final class WebappsDirectory {

    /** The applications found, by context path, and the directories a WAR of the same name hides. */
    public record Listing(Map<String, Path> applications, List<Path> shadowed) {
    }

    private WebappsDirectory() {
    }

    /** @return what {@code directory} holds now; nothing when it does not exist */
    public static Listing list(Path directory) throws IOException {
        Map<String, Path> applications = new TreeMap<>();
        List<Path> shadowed = new ArrayList<>();
        if (!Files.isDirectory(directory)) {
            return new Listing(applications, shadowed);
        }
        List<Path> entries;
        try (Stream<Path> files = Files.list(directory)) {
            entries = files.sorted().toList();
        }
        for (Path entry : entries) {
            String name = entry.getFileName().toString();
            if (name.startsWith(".")) {
                continue;
            }
            if (Files.isRegularFile(entry) && name.endsWith(".war") && name.length() > ".war".length()) {
                applications.put(contextPathOf(name.substring(0, name.length() - ".war".length())), entry);
            }
        }
        for (Path entry : entries) {
            String name = entry.getFileName().toString();
            if (name.startsWith(".") || !Files.isDirectory(entry)) {
                continue;
            }
            String contextPath = contextPathOf(name);
            if (applications.containsKey(contextPath)) {
                shadowed.add(entry);
            } else {
                applications.put(contextPath, entry);
            }
        }
        return new Listing(applications, shadowed);
    }

    /** @return the context path of an application named {@code name} (without {@code .war}) */
    public static String contextPathOf(String name) {
        return name.equals("ROOT") ? "/" : "/" + name.replace('#', '/');
    }
}
