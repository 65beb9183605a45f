package io.wharf.servlet.internal;

import java.io.IOException;
import java.util.List;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;

/**
 * One run through a dispatch's filters and then its servlet (Servlet 6.1 section 6.2.1): each
 * {@link #doFilter} calls the next filter, the last calls the servlet. While a filter or the
 * servlet runs, the request supports async only if it and every one before it do.
 *
 * <p><b>Threads.</b> One run per dispatch, on the thread that dispatches; not reusable.
 */
final class FilterChainRun implements FilterChain {

    private final List<FilterEntry> filters;
    private final ServletEntry servlet;
    private int next;

    FilterChainRun(List<FilterEntry> filters, ServletEntry servlet) {
        this.filters = filters;
        this.servlet = servlet;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response) throws IOException, ServletException {
        ServletApiRequest base = ServletApiRequest.unwrap(request);
        if (next < filters.size()) {
            FilterEntry filter = filters.get(next++);
            boolean previous = base == null || base.setAsyncSupported(base.isAsyncSupported() && filter.isAsyncSupported());
            try {
                filter.filter().doFilter(request, response, this);
            } finally {
                if (base != null) {
                    base.setAsyncSupported(previous);
                }
            }
            return;
        }
        boolean previous = base == null || base.setAsyncSupported(base.isAsyncSupported() && servlet.isAsyncSupported());
        try {
            servlet.servlet().service(request, response);
        } finally {
            if (base != null) {
                base.setAsyncSupported(previous);
            }
        }
    }
}
