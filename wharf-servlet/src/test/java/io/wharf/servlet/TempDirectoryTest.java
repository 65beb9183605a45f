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

import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The context's temporary directory is made as it starts and is the {@code ServletContext.TEMPDIR} attribute, a File (section 4.8.1). */
class TempDirectoryTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @TempDir
    Path root;

    private ServletTester tester;

    @AfterEach
    void stop() throws Exception {
        tester.close();
    }

    @Test
    void theTemporaryDirectoryIsTheTempdirAttribute() throws Exception {
        Path temp = root.resolve("work/ctx");
        tester = new ServletTester(leaks.pool(), "/ctx");
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
}
