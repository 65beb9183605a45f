package io.wharf.webapp.internal;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.MultipartConfigElement;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletRegistration;
import jakarta.servlet.SessionCookieConfig;

import io.wharf.servlet.ServletContextHandler;
import io.wharf.webapp.DeploymentException;
import io.wharf.webapp.descriptor.CookieConfig;
import io.wharf.webapp.descriptor.ErrorPage;
import io.wharf.webapp.descriptor.FilterDefinition;
import io.wharf.webapp.descriptor.FilterMapping;
import io.wharf.webapp.descriptor.MultipartConfig;
import io.wharf.webapp.descriptor.ServletDefinition;
import io.wharf.webapp.descriptor.ServletMapping;
import io.wharf.webapp.descriptor.SessionConfig;
import io.wharf.webapp.descriptor.WebDescriptor;
import io.wharf.webapp.scan.WebAppMetadata;

/**
 * Puts an effective descriptor into a {@link ServletContextHandler} that has not started: the
 * display name, context parameters, servlets and their mappings, filters and their mappings in
 * document order, listeners, session settings, error pages, welcome files, MIME and locale
 * mappings, character encodings and declared roles, through the standard {@link ServletContext}
 * registration API. What Wharf cannot honour yet (security constraints, login, run-as, JSP
 * files) is refused with a {@link DeploymentException} naming the element, never dropped.
 * Called by {@link io.wharf.webapp.WebApplication} on the deploying thread, with the
 * application's class loader as the thread's context class loader.
 */
public final class DescriptorApplier {

    private final ServletContextHandler handler;
    private final ServletContext context;
    private final ClassLoader loader;

    /** @param handler the context to fill; @param loader the application's class loader, for exception types */
    public DescriptorApplier(ServletContextHandler handler, ClassLoader loader) {
        this.handler = handler;
        this.context = handler.getServletContext();
        this.loader = loader;
    }

    /**
     * Refuses what this version of Wharf cannot run as written.
     *
     * @throws DeploymentException naming the first unsupported element
     */
    public static void refuseUnsupported(WebAppMetadata metadata) {
        WebDescriptor descriptor = metadata.descriptor();
        List<String> unsupported = new ArrayList<>();
        if (!descriptor.securityConstraints().isEmpty()) {
            unsupported.add("<security-constraint>");
        }
        if (descriptor.loginConfig().isPresent()) {
            unsupported.add("<login-config>");
        }
        if (descriptor.denyUncoveredHttpMethods()) {
            unsupported.add("<deny-uncovered-http-methods>");
        }
        metadata.servletSecurity().keySet().stream().sorted().forEach(servlet -> unsupported.add("@ServletSecurity (servlet " + servlet + ")"));
        for (ServletDefinition servlet : descriptor.servlets()) {
            servlet.runAs().ifPresent(role -> unsupported.add("<run-as> (servlet " + servlet.name() + ")"));
        }
        if (!unsupported.isEmpty()) {
            throw new DeploymentException(String.join(", ", unsupported) + (unsupported.size() == 1 ? " is" : " are")
                + " not supported yet: Wharf has no container security yet, and an application whose resources are meant to be"
                + " protected is not deployed unprotected");
        }
    }

    /** Applies {@code descriptor}; the handler must not have started. */
    public void apply(WebDescriptor descriptor) {
        descriptor.displayName().ifPresent(handler::setDisplayName);
        descriptor.contextParams().forEach(context::setInitParameter);
        descriptor.listeners().forEach(context::addListener);
        List<String> disabled = new ArrayList<>();
        for (ServletDefinition servlet : descriptor.servlets()) {
            if (servlet.enabled().orElse(true)) {
                addServlet(servlet);
            } else {
                disabled.add(servlet.name());
                System.getLogger(DescriptorApplier.class.getName()).log(System.Logger.Level.INFO,
                    "{0}: servlet {1} is disabled (<enabled>false</enabled>): not registered, its mappings left out",
                    descriptor.source(), servlet.name());
            }
        }
        for (ServletMapping mapping : descriptor.servletMappings()) {
            if (!disabled.contains(mapping.servletName())) {
                map(mapping);
            }
        }
        for (FilterDefinition filter : descriptor.filters()) {
            FilterRegistration.Dynamic registration = context.addFilter(filter.name(),
                filter.className().orElseThrow(() -> new DeploymentException("filter " + filter.name() + " has no <filter-class>")));
            registration.setInitParameters(filter.initParams());
            filter.asyncSupported().ifPresent(registration::setAsyncSupported);
        }
        for (FilterMapping mapping : descriptor.filterMappings()) {
            map(mapping);
        }
        descriptor.sessionConfig().ifPresent(this::session);
        descriptor.errorPages().forEach(this::errorPage);
        if (!descriptor.welcomeFiles().isEmpty()) {
            handler.setWelcomeFiles(descriptor.welcomeFiles());
        }
        descriptor.mimeMappings().forEach(handler::addMimeMapping);
        descriptor.localeEncodingMappings().forEach(handler::addLocaleEncoding);
        descriptor.requestCharacterEncoding().ifPresent(context::setRequestCharacterEncoding);
        descriptor.responseCharacterEncoding().ifPresent(context::setResponseCharacterEncoding);
        if (!descriptor.securityRoles().isEmpty()) {
            context.declareRoles(descriptor.securityRoles().toArray(String[]::new));
        }
    }

    private void addServlet(ServletDefinition servlet) {
        if (servlet.jspFile().isPresent()) {
            throw new DeploymentException("servlet " + servlet.name() + " is the JSP file " + servlet.jspFile().get()
                + ": JSP needs wharf-jsp, the JSP engine, which this server does not have");
        }
        ServletRegistration.Dynamic registration = context.addServlet(servlet.name(),
            servlet.className().orElseThrow(() -> new DeploymentException("servlet " + servlet.name() + " has neither <servlet-class> nor <jsp-file>")));
        if (registration == null) {
            throw new DeploymentException("servlet " + servlet.name() + " is declared twice");
        }
        registration.setInitParameters(servlet.initParams());
        servlet.loadOnStartup().ifPresent(registration::setLoadOnStartup);
        servlet.asyncSupported().ifPresent(registration::setAsyncSupported);
        servlet.multipartConfig().map(DescriptorApplier::multipart).ifPresent(registration::setMultipartConfig);
    }

    private static MultipartConfigElement multipart(MultipartConfig config) {
        return new MultipartConfigElement(config.location(), config.maxFileSize(), config.maxRequestSize(), config.fileSizeThreshold());
    }

    private void map(ServletMapping mapping) {
        ServletRegistration registration = context.getServletRegistration(mapping.servletName());
        if (registration == null) {
            throw new DeploymentException("<servlet-mapping> names servlet " + mapping.servletName() + ", which is not declared");
        }
        Set<String> conflicts = registration.addMapping(mapping.urlPatterns().toArray(String[]::new));
        if (!conflicts.isEmpty()) {
            throw new DeploymentException("servlet " + mapping.servletName() + ": url-patterns " + conflicts + " are mapped to another servlet");
        }
    }

    private void map(FilterMapping mapping) {
        FilterRegistration registration = context.getFilterRegistration(mapping.filterName());
        if (registration == null) {
            throw new DeploymentException("<filter-mapping> names filter " + mapping.filterName() + ", which is not declared");
        }
        EnumSet<DispatcherType> types = mapping.dispatcherTypes().isEmpty()
            ? EnumSet.of(DispatcherType.REQUEST) : EnumSet.copyOf(mapping.dispatcherTypes());
        if (!mapping.urlPatterns().isEmpty()) {
            registration.addMappingForUrlPatterns(types, true, mapping.urlPatterns().toArray(String[]::new));
        }
        if (!mapping.servletNames().isEmpty()) {
            registration.addMappingForServletNames(types, true, mapping.servletNames().toArray(String[]::new));
        }
    }

    private void session(SessionConfig config) {
        config.timeoutMinutes().ifPresent(context::setSessionTimeout);
        config.cookieConfig().ifPresent(this::cookie);
        if (!config.trackingModes().isEmpty()) {
            try {
                context.setSessionTrackingModes(Set.copyOf(config.trackingModes()));
            } catch (IllegalArgumentException e) {
                throw new DeploymentException("<tracking-mode> " + config.trackingModes() + ": " + e.getMessage(), e);
            }
        }
    }

    private void cookie(CookieConfig config) {
        SessionCookieConfig cookie = context.getSessionCookieConfig();
        config.name().ifPresent(cookie::setName);
        config.domain().ifPresent(cookie::setDomain);
        config.path().ifPresent(cookie::setPath);
        config.httpOnly().ifPresent(cookie::setHttpOnly);
        config.secure().ifPresent(cookie::setSecure);
        config.maxAge().ifPresent(cookie::setMaxAge);
        config.attributes().forEach(cookie::setAttribute);
        // <comment> is read but has no effect: Servlet 6.0 made SessionCookieConfig.setComment a no-op (RFC 6265 has no Comment).
    }

    private void errorPage(ErrorPage page) {
        if (page.errorCode().isPresent()) {
            handler.addErrorPage(page.errorCode().get(), page.location());
        } else if (page.exceptionType().isPresent()) {
            handler.addErrorPage(throwable(page.exceptionType().get()), page.location());
        } else {
            handler.setDefaultErrorPage(page.location());
        }
    }

    private Class<? extends Throwable> throwable(String name) {
        try {
            Class<?> type = Class.forName(name, false, loader);
            if (!Throwable.class.isAssignableFrom(type)) {
                throw new DeploymentException("<error-page> <exception-type> " + name + " is not a Throwable");
            }
            return type.asSubclass(Throwable.class);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new DeploymentException("<error-page> <exception-type> " + name + " cannot be loaded: " + e, e);
        }
    }
}
