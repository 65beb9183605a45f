package webapps;

import java.io.IOException;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletResponse;

/** Adds its {@code mark} init parameter to the X-Trace header, so a test sees the filters' order. */
public class TraceFilter implements Filter {

    private String mark;

    @Override
    public void init(jakarta.servlet.FilterConfig config) {
        mark = config.getInitParameter("mark");
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain) throws IOException, ServletException {
        ((HttpServletResponse) response).addHeader("X-Trace", mark);
        chain.doFilter(request, response);
    }
}
