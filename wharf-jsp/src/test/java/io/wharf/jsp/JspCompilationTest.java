package io.wharf.jsp;

import static io.wharf.jsp.JspTester.content;
import static io.wharf.jsp.JspTester.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.concurrent.TimeUnit;


import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * When Jasper compiles a page again, as the {@code jsp} servlet's init parameters say
 * (docs/servlet.md, "JSP"), and the JDK's compiler in place of the Eclipse compiler, which
 * reads the class path JspInitializer gives it.
 */
class JspCompilationTest {

    @RegisterExtension
    final JspTester tester = JspTester.withJsp();


    /** Development mode (Jasper's default) with modificationTestInterval 0 checks the page's time on every request. */
    @Test
    void aChangedPageIsCompiledAgainInDevelopmentMode() throws Exception {
        tester.jsp.setInitParameter("development", "true");
        tester.jsp.setInitParameter("modificationTestInterval", "0");
        tester.page("/v.jsp", "version <%= 1 %>").start();
        assertEquals("version 1", content(tester.get("/ctx/v.jsp")).strip());
        rewrite("/v.jsp", "version <%= 2 %> ${'now'}");
        assertEquals("version 2 now", content(tester.get("/ctx/v.jsp")).strip());
    }

    /** With development off and no check interval (Jasper's defaults for production) a compiled page stays as it was. */
    @Test
    void aChangedPageStaysCompiledWhenDevelopmentIsOff() throws Exception {
        tester.jsp.setInitParameter("development", "false");
        tester.page("/v.jsp", "version <%= 1 %>").start();
        assertEquals("version 1", content(tester.get("/ctx/v.jsp")).strip());
        rewrite("/v.jsp", "version <%= 2 %>");
        assertEquals("version 1", content(tester.get("/ctx/v.jsp")).strip());
    }

    /** With development off and a check interval, Jasper's background check runs and compiles the changed page. */
    @Test
    void aChangedPageIsCompiledInTheBackgroundWithACheckInterval() throws Exception {
        tester.jsp.setInitParameter("development", "false");
        tester.jsp.setInitParameter("checkInterval", "1");
        tester.page("/v.jsp", "version <%= 1 %>").start();
        assertEquals("version 1", content(tester.get("/ctx/v.jsp")).strip());
        rewrite("/v.jsp", "version <%= 2 %>");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        String version = content(tester.get("/ctx/v.jsp")).strip();
        while (!version.equals("version 2") && System.nanoTime() - deadline < 0) {
            Thread.sleep(100);
            version = content(tester.get("/ctx/v.jsp")).strip();
        }
        assertEquals("version 2", version);
    }

    /** The JDK's compiler reads the class path JspInitializer computed: the page uses a class of the tests. */
    @Test
    void theJdksCompilerCompilesWithTheContextsClassPath() throws Exception {
        tester.jsp.setInitParameter("compilerClassName", "org.apache.jasper.compiler.JavaCompiler");
        tester.page("/javac.jsp", "<%@ page import=\"io.wharf.jsp.TagFunctions\" %><%= TagFunctions.repeat(\"ok\", 2) %>")
            .page("/bad.jsp", "<% undefinedName(); %>")
            .start();
        assertEquals("okok", content(tester.get("/ctx/javac.jsp")).strip());
        String broken = tester.get("/ctx/bad.jsp");
        assertEquals(500, status(broken));
        assertFalse(broken.contains("undefinedName"), broken);
    }

    /** Writes the page again with a modification time clearly after the first, whatever the file system's resolution. */
    private void rewrite(String path, String text) throws Exception {
        Path file = tester.pages.resolve(path.substring(1));
        Instant before = Files.getLastModifiedTime(file).toInstant();
        Files.writeString(file, text);
        Files.setLastModifiedTime(file, FileTime.from(before.plusSeconds(10)));
    }
}
