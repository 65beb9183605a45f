package io.wharf.bench.war;

import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.EnableWebMvc;
import org.springframework.web.servlet.support.AbstractAnnotationConfigDispatcherServletInitializer;

/**
 * The application's setup, as a user writes it for a servlet container: Spring's
 * {@code SpringServletContainerInitializer} (in spring-web, found by the container's scan of
 * WEB-INF/lib) is handed {@link Initializer} through its {@code @HandlesTypes}; the initializer
 * registers a {@code DispatcherServlet} on {@code /} (loaded on startup) for {@link WebConfig},
 * which turns on Spring MVC (with Jackson 3 for JSON and Hibernate Validator for
 * {@code @Valid}, both found on the class path) and scans this package for {@link HelloController}.
 */
public final class SpringApp {

    private SpringApp() {
    }

    /** Found by Spring's servlet container initializer; registers the dispatcher servlet. */
    public static final class Initializer extends AbstractAnnotationConfigDispatcherServletInitializer {

        @Override
        protected Class<?>[] getRootConfigClasses() {
            return null;
        }

        @Override
        protected Class<?>[] getServletConfigClasses() {
            return new Class<?>[] {WebConfig.class};
        }

        @Override
        protected String[] getServletMappings() {
            return new String[] {"/"};
        }
    }

    /** Spring MVC, and the controllers of this package. */
    @Configuration
    @EnableWebMvc
    @ComponentScan(basePackageClasses = SpringApp.class)
    public static class WebConfig {
    }
}
