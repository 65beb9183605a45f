package io.wharf.webapp.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Names in a webapps directory, and what counts as a change of an application. */
class WebappsDirectoryTest {

    @TempDir
    Path webapps;

    @Test
    void namesGiveContextPathsAndAWarHidesTheDirectoryOfItsName() throws Exception {
        Files.createFile(webapps.resolve("ROOT.war"));
        Files.createDirectories(webapps.resolve("shop"));
        Files.createFile(webapps.resolve("shop.war"));
        Files.createDirectories(webapps.resolve("blog"));
        Files.createFile(webapps.resolve("shop#admin.war"));
        Files.createFile(webapps.resolve(".partial.war"));
        Files.createFile(webapps.resolve("notes.txt"));
        Files.createFile(webapps.resolve(".war"));

        WebappsDirectory.Listing listing = WebappsDirectory.list(webapps);

        assertEquals(Map.of("/", webapps.resolve("ROOT.war"), "/shop", webapps.resolve("shop.war"), "/blog", webapps.resolve("blog"),
            "/shop/admin", webapps.resolve("shop#admin.war")), listing.applications());
        assertEquals(List.of(webapps.resolve("shop")), listing.shadowed());
        assertEquals(Map.of(), WebappsDirectory.list(webapps.resolve("absent")).applications());
    }

    @Test
    void aDirectoryChangesWithItsWebInfNotWithItsStaticFiles() throws Exception {
        Path app = webapps.resolve("app");
        Files.createDirectories(app.resolve("WEB-INF/classes"));
        Files.writeString(app.resolve("WEB-INF/web.xml"), "<web-app/>");
        Files.writeString(app.resolve("index.html"), "one");
        SourceStamp first = SourceStamp.of(app);

        Files.writeString(app.resolve("index.html"), "two, longer");
        assertEquals(first, SourceStamp.of(app));

        Files.writeString(app.resolve("WEB-INF/classes/A.class"), "new class");
        assertNotEquals(first, SourceStamp.of(app));
    }

    @Test
    void aWarChangesWithItsSizeOrTime() throws Exception {
        Path war = Files.writeString(webapps.resolve("app.war"), "one");
        Files.setLastModifiedTime(war, FileTime.fromMillis(1_000_000));
        SourceStamp first = SourceStamp.of(war);
        assertEquals(first, SourceStamp.of(war));

        Files.setLastModifiedTime(war, FileTime.fromMillis(2_000_000));
        assertNotEquals(first, SourceStamp.of(war));
    }
}
