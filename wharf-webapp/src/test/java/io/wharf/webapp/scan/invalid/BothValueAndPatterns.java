package io.wharf.webapp.scan.invalid;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;

/** Scan fixture kept apart from the others: gives both value and urlPatterns, which Servlet 6.1 section 8.1.1 forbids. */
@WebServlet(value = "/a", urlPatterns = "/b")
public class BothValueAndPatterns extends HttpServlet {
    private static final long serialVersionUID = 1L;
}
