package io.wharf.tests.servlet;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import jakarta.servlet.MultipartConfigElement;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import jakarta.servlet.http.Part;

/**
 * The test application of multipart requests (Servlet 6.1 section 3.2) and sessions (chapter 7):
 * {@code /parts} prints each part and the form fields as parameters, with limits small enough
 * to be passed; {@code /parts-unconfigured} has no multipart config; {@code /session/*} walks a
 * session's life in one request (made, new, attributes, invalidated, made again), since the
 * suite's requests do not share cookies.
 */
final class PartsAndSessionsApplication implements ServletContainerInitializer {

    @Override
    public void onStartup(Set<Class<?>> classes, ServletContext context) {
        context.addServlet("parts", new PrintingServlet((request, response) -> parts(request)))
            .setMultipartConfig(new MultipartConfigElement("", 1024, 4096, 0));
        context.getServletRegistration("parts").addMapping("/parts");
        context.addServlet("unconfigured", new PrintingServlet((request, response) -> parts(request))).addMapping("/parts-unconfigured");
        context.addServlet("session", new PrintingServlet((request, response) -> session(request))).addMapping("/session/*");
    }

    private static List<String> parts(HttpServletRequest request) throws IOException, ServletException {
        List<String> lines = new ArrayList<>();
        try {
            for (Part part : request.getParts()) {
                lines.add("part " + part.getName() + " file=" + part.getSubmittedFileName() + " size=" + part.getSize()
                    + " type=" + part.getContentType() + " content=" + new String(part.getInputStream().readAllBytes()));
            }
            lines.add("getParameter(field)=" + request.getParameter("field"));
            lines.add("getPart(missing)=" + request.getPart("missing"));
        } catch (IllegalStateException x) {
            lines.add("IllegalStateException");
        }
        return lines;
    }

    private static List<String> session(HttpServletRequest request) {
        List<String> lines = new ArrayList<>();
        lines.add("before=" + (request.getSession(false) != null));
        lines.add("requestedId=" + (request.getRequestedSessionId() != null) + " valid=" + request.isRequestedSessionIdValid());
        HttpSession session = request.getSession();
        lines.add("new=" + session.isNew() + " timeout=" + session.getMaxInactiveInterval());
        session.setAttribute("a", "1");
        session.setAttribute("a", "2");
        lines.add("a=" + session.getAttribute("a") + " names=" + java.util.Collections.list(session.getAttributeNames()));
        if ("/invalidate".equals(request.getPathInfo())) {
            String id = session.getId();
            session.invalidate();
            lines.add("after invalidate=" + (request.getSession(false) != null));
            try {
                session.getAttribute("a");
                lines.add("invalidated session readable");
            } catch (IllegalStateException expected) {
                lines.add("invalidated session refuses getAttribute");
            }
            HttpSession again = request.getSession(true);
            lines.add("again new=" + again.isNew() + " sameId=" + again.getId().equals(id));
        }
        if ("/change".equals(request.getPathInfo())) {
            String id = session.getId();
            lines.add("changed=" + !request.changeSessionId().equals(id) + " kept a=" + session.getAttribute("a"));
        }
        return lines;
    }
}
