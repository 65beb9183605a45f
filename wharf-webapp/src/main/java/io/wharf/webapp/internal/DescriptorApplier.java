package io.wharf.webapp.internal;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.MultipartConfigElement;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletRegistration;
import jakarta.servlet.SessionCookieConfig;

import io.wharf.servlet.ServletContextHandler;
import io.wharf.servlet.security.LoginConfig;
import io.wharf.servlet.security.LoginService;
import io.wharf.servlet.security.SecurityConstraint;
import io.wharf.webapp.DeploymentException;
import io.wharf.webapp.descriptor.CookieConfig;
import io.wharf.webapp.descriptor.ErrorPage;
import io.wharf.webapp.descriptor.FilterDefinition;
import io.wharf.webapp.descriptor.FilterMapping;
import io.wharf.webapp.descriptor.MultipartConfig;
import io.wharf.webapp.descriptor.SecurityRoleRef;
import io.wharf.webapp.descriptor.ServletDefinition;
import io.wharf.webapp.descriptor.ServletMapping;
import io.wharf.webapp.descriptor.SessionConfig;
import io.wharf.webapp.descriptor.WebDescriptor;
import io.wharf.webapp.descriptor.WebResourceCollection;
import io.wharf.webapp.scan.WebAppMetadata;

/**
 * Puts an effective descriptor into a {@link ServletContextHandler} that has not started: the
 * display name, context parameters, servlets and their mappings, filters and their mappings in
 * document order, listeners, session settings, error pages, welcome files, MIME and locale
 * mappings, character encodings, declared roles and security (constraints, login, run-as,
 * {@code @ServletSecurity}), through the standard {@link ServletContext} registration API and the
 * handler's security setters; {@code <jsp-file>} servlets are registered as the context starts
 * ({@link #jspFileServlets()}), through wharf-jsp when the server has it. What Wharf cannot
 * honour yet (role links) is refused with a {@link DeploymentException} naming the element,
 * never dropped.
 * Called by {@link io.wharf.webapp.WebApplication} on the deploying thread, with the
 * application's class loader as the thread's context class loader.
 */
public final class DescriptorApplier {

    private final ServletContextHandler handler;
    private final ServletContext context;
    private final ClassLoader loader;
    private final List<ServletDefinition> jspFiles = new ArrayList<>();
    private final List<ServletMapping> jspFileMappings = new ArrayList<>();

    /** @param handler the context to fill; @param loader the application's class loader, for exception types */
    public DescriptorApplier(ServletContextHandler handler, ClassLoader loader) {
        this.handler = handler;
        this.context = handler.getServletContext();
        this.loader = loader;
    }

    /**
     * Refuses security without a way to check users.
     *
     * @param loginService the server's users for the application, or null when it was given none
     * @throws DeploymentException naming the elements
     */
    public static void refuseUnsupported(WebAppMetadata metadata, LoginService loginService) {
        WebDescriptor descriptor = metadata.descriptor();
        List<String> secured = new ArrayList<>();
        if (!descriptor.securityConstraints().isEmpty()) {
            secured.add("<security-constraint>");
        }
        descriptor.loginConfig().ifPresent(config -> secured.add("<login-config>"));
        metadata.servletSecurity().keySet().stream().sorted().forEach(servlet -> secured.add("@ServletSecurity (servlet " + servlet + ")"));
        if (!secured.isEmpty() && loginService == null) {
            throw new DeploymentException("the application has " + String.join(", ", secured) + " but the server was given no"
                + " LoginService to check its users with (WebAppSettings.withLoginService); it is not deployed unprotected");
        }
    }

    /**
     * Applies the effective descriptor and the servlets' {@code @ServletSecurity}; the handler
     * must not have started.
     *
     * @param loginService the users, set when the application has security (null otherwise)
     */
    public void apply(WebAppMetadata metadata, LoginService loginService) {
        WebDescriptor descriptor = metadata.descriptor();
        descriptor.displayName().ifPresent(handler::setDisplayName);
        descriptor.contextParams().forEach(context::setInitParameter);
        descriptor.listeners().forEach(context::addListener);
        List<String> disabled = new ArrayList<>();
        descriptor.jspConfig().ifPresent(config -> handler.setJspConfig(new JspConfigView(config)));
        for (ServletDefinition servlet : descriptor.servlets()) {
            for (SecurityRoleRef reference : servlet.securityRoleRefs()) {
                reference.roleLink().ifPresent(link -> handler.addRoleLink(servlet.name(), reference.roleName(), link));
            }
            if (servlet.enabled().orElse(true)) {
                addServlet(servlet);
            } else {
                disabled.add(servlet.name());
                System.getLogger(DescriptorApplier.class.getName()).log(System.Logger.Level.INFO,
                    "{0}: servlet {1} is disabled (<enabled>false</enabled>): not registered, its mappings left out",
                    descriptor.source(), servlet.name());
            }
        }
        Set<String> jspFileNames = new HashSet<>();
        jspFiles.forEach(servlet -> jspFileNames.add(servlet.name()));
        for (ServletMapping mapping : descriptor.servletMappings()) {
            if (jspFileNames.contains(mapping.servletName())) {
                jspFileMappings.add(mapping);
            } else if (!disabled.contains(mapping.servletName())) {
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
        security(metadata, loginService);
    }

    /** Constraints, login, uncovered methods and the servlets' {@code @ServletSecurity} (Servlet 6.1 chapter 13). */
    private void security(WebAppMetadata metadata, LoginService loginService) {
        WebDescriptor descriptor = metadata.descriptor();
        boolean secured = !descriptor.securityConstraints().isEmpty() || descriptor.loginConfig().isPresent()
            || !metadata.servletSecurity().isEmpty();
        if (secured && loginService != null) {
            handler.setLoginService(loginService);
        }
        for (io.wharf.webapp.descriptor.SecurityConstraint constraint : descriptor.securityConstraints()) {
            Set<String> roles = constraint.authConstraint().map(auth -> Set.copyOf(auth.roleNames())).orElse(null);
            for (WebResourceCollection collection : constraint.collections()) {
                try {
                    handler.addSecurityConstraint(new SecurityConstraint(collection.urlPatterns(), Set.copyOf(collection.httpMethods()),
                        Set.copyOf(collection.httpMethodOmissions()), roles, constraint.transportGuarantee().orElse(null)));
                } catch (IllegalArgumentException e) {
                    throw new DeploymentException("<security-constraint> '" + collection.name() + "': " + e.getMessage(), e);
                }
            }
        }
        descriptor.loginConfig().ifPresent(config -> handler.setLoginConfig(login(config)));
        if (descriptor.denyUncoveredHttpMethods()) {
            handler.setDenyUncoveredHttpMethods(true);
        }
        metadata.servletSecurity().forEach((name, annotation) -> {
            ServletRegistration registration = context.getServletRegistration(name);
            if (registration instanceof ServletRegistration.Dynamic dynamic) {
                dynamic.setServletSecurity(annotation.toElement());
            }
        });
    }

    private static LoginConfig login(io.wharf.webapp.descriptor.LoginConfig config) {
        String method = config.authMethod().orElse("BASIC");
        String realm = config.realmName().orElse(null);
        try {
            return switch (method) {
                case "BASIC" -> new LoginConfig(LoginConfig.Method.BASIC, realm, null, null);
                case "DIGEST" -> new LoginConfig(LoginConfig.Method.DIGEST, realm, null, null);
                case "CLIENT-CERT" -> new LoginConfig(LoginConfig.Method.CLIENT_CERT, realm, null, null);
                case "FORM" -> new LoginConfig(LoginConfig.Method.FORM, realm, config.formLoginPage().orElse(null),
                    config.formErrorPage().orElse(null));
                default -> throw new DeploymentException("<login-config> <auth-method> " + method
                    + " is not supported (BASIC, DIGEST, FORM, CLIENT-CERT)");
            };
        } catch (IllegalArgumentException e) {
            throw new DeploymentException("<login-config>: " + e.getMessage(), e);
        }
    }

    private void addServlet(ServletDefinition servlet) {
        if (servlet.jspFile().isPresent()) {
            jspFiles.add(servlet);
            return;
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
        servlet.runAs().ifPresent(registration::setRunAsRole);
    }

    /**
     * @return the initializer that registers the descriptor's {@code <jsp-file>} servlets and their
     *     mappings as the context starts, to add after every other initializer; empty when there are none
     */
    public Optional<ServletContainerInitializer> jspFileServlets() {
        return jspFiles.isEmpty() ? Optional.empty() : Optional.of(new JspFileServlets(jspFiles, jspFileMappings));
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
