package webapps.sci;

import java.io.IOException;
import java.util.Set;
import java.util.TreeSet;

import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.annotation.HandlesTypes;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/** Registers /plugins, which lists the plugin classes it was given and whether the application's loader defined them. */
@HandlesTypes(Plugin.class)
public class PluginInitializer implements ServletContainerInitializer {

    @Override
    public void onStartup(Set<Class<?>> classes, ServletContext context) {
        Set<String> names = new TreeSet<>();
        if (classes != null) {
            for (Class<?> type : classes) {
                names.add(type.getName() + "@" + (type.getClassLoader() == PluginInitializer.class.getClassLoader() ? "app" : "other"));
            }
        }
        context.addServlet("plugins", new PluginsServlet(names.toString())).addMapping("/plugins");
    }

    /** Prints what it was made with. */
    public static final class PluginsServlet extends HttpServlet {

        private static final long serialVersionUID = 1L;
        private final String text;

        PluginsServlet(String text) {
            this.text = text;
        }

        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            response.setContentType("text/plain");
            response.getWriter().print("plugins " + text);
        }
    }
}
