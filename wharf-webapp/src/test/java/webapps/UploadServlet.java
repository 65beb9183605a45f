package webapps;

import java.io.IOException;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.Part;

/** Reads a multipart upload, which works only when its descriptor gives it a multipart-config. */
public class UploadServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException, ServletException {
        Part part = request.getPart("file");
        response.setContentType("text/plain");
        response.getWriter().print("file " + part.getSubmittedFileName() + ": " + part.getSize() + " bytes");
    }
}
