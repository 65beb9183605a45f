package io.wharf.jsp.internal;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.ServletException;

/**
 * Where Jasper writes the Java source and classes of the pages it compiles: the directory
 * {@code jsp} under the context's temporary directory, the {@link ServletContext#TEMPDIR}
 * attribute (Servlet 6.1 section 4.8.1). A context without one gets a private directory under
 * {@code java.io.tmpdir} as its {@code TEMPDIR}, deleted with what is in it when the context
 * is destroyed; a directory the application gave is left in place, so pages compiled there
 * survive a restart.
 *
 * <p>Called on the thread that starts the context.
 */
final class ScratchDirectory implements ServletContextListener {

    private final File made;

    private ScratchDirectory(File made) {
        this.made = made;
    }

    /**
     * @return the scratch directory of {@code context}, made if missing
     * @throws ServletException when it cannot be made
     */
    static Path prepare(ServletContext context) throws ServletException {
        try {
            File temp = context.getAttribute(ServletContext.TEMPDIR) instanceof File given ? given : null;
            if (temp == null) {
                temp = Files.createTempDirectory("wharf-jsp-").toFile();
                context.setAttribute(ServletContext.TEMPDIR, temp);
                context.addListener(new ScratchDirectory(temp));
            }
            return Files.createDirectories(temp.toPath().resolve("jsp"));
        } catch (IOException x) {
            throw new ServletException("cannot make the JSP scratch directory of context " + context.getContextPath() + ": " + x, x);
        }
    }

    /** Deletes the temporary directory made for the context, after its servlets are destroyed. */
    @Override
    public void contextDestroyed(ServletContextEvent event) {
        ServletContext context = event.getServletContext();
        if (context.getAttribute(ServletContext.TEMPDIR) == made) {
            context.removeAttribute(ServletContext.TEMPDIR);
        }
        try (Stream<Path> files = Files.walk(made.toPath())) {
            files.sorted(Comparator.reverseOrder()).forEach(ScratchDirectory::delete);
        } catch (IOException | UncheckedIOException x) {
            context.log("cannot delete the JSP scratch directory " + made, x);
        }
    }

    private static void delete(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException x) {
            throw new UncheckedIOException(x);
        }
    }
}
