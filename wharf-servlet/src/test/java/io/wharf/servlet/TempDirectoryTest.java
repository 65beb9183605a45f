package io.wharf.servlet;

import static io.wharf.servlet.ServletTester.content;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;


import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The context's temporary directory is made as it starts and is the {@code ServletContext.TEMPDIR} attribute, a File (section 4.8.1). */
class TempDirectoryTest extends ServletTestCase {

    @TempDir
    Path root;

    @Test
    void theTemporaryDirectoryIsTheTempdirAttribute() throws Exception {
        Path temp = root.resolve("work/ctx");
        tester("/ctx");
        tester.context.setTempDirectory(temp);
        tester.context.addServlet(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
                File directory = (File) getServletContext().getAttribute(ServletContext.TEMPDIR);
                response.getWriter().print(directory + " " + directory.isDirectory());
            }
        }, "/temp");
        tester.start();
        assertTrue(Files.isDirectory(temp));
        assertEquals(temp.toFile() + " true", content(tester.get("/ctx/temp")));
    }

    @Test
    void aContextWithoutOneGetsItsOwnForAsLongAsItRuns() throws Exception {
        tester("/ctx");
        tester.context.addServlet(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
                File directory = (File) getServletContext().getAttribute(ServletContext.TEMPDIR);
                java.nio.file.Files.writeString(directory.toPath().resolve("scratch.txt"), "x");
                response.getWriter().print(directory);
            }
        }, "/temp");
        tester.start();
        Path made = Path.of(content(tester.get("/ctx/temp")));
        assertTrue(Files.isRegularFile(made.resolve("scratch.txt")));
        tester.context.stop();
        assertTrue(!Files.exists(made), "deleted when the context stops");
    }
}
