package io.wharf.tests.frameworks;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import jakarta.servlet.Filter;
import jakarta.servlet.MultipartConfigElement;
import jakarta.servlet.ServletRegistration;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.web.filter.CharacterEncodingFilter;
import org.springframework.web.servlet.config.annotation.AsyncSupportConfigurer;
import org.springframework.web.servlet.config.annotation.DefaultServletHandlerConfigurer;
import org.springframework.web.servlet.config.annotation.EnableWebMvc;
import org.springframework.web.servlet.config.annotation.ResourceHandlerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import org.springframework.core.task.support.TaskExecutorAdapter;
import org.springframework.web.servlet.support.AbstractAnnotationConfigDispatcherServletInitializer;

/**
 * A Spring MVC application as a user would write it for a servlet container, unmodified by
 * anything Wharf: Spring's own {@code SpringServletContainerInitializer} finds
 * {@link Initializer} (it is the class its {@code @HandlesTypes} is given), which registers a
 * {@code ContextLoaderListener} for {@link RootConfig}, a {@code DispatcherServlet} for
 * {@link WebConfig} on {@code /} with a multipart configuration and async support, and a
 * {@code CharacterEncodingFilter} for every dispatch type.
 *
 * <p>{@link WebConfig} serves {@code /static/**} from the class path with Spring's resource
 * handling and hands what no controller maps to the container's default servlet (by its name,
 * {@code default}), which serves the context's base resource directory.
 */
public final class SpringMvcApplication {

    /** The upload limit the DispatcherServlet's multipart configuration sets for one file. */
    public static final long MAX_FILE_SIZE = 2 * 1024 * 1024;

    private SpringMvcApplication() {
    }

    /** Found by Spring's servlet container initializer; registers the listener, the servlet and the filter. */
    public static final class Initializer extends AbstractAnnotationConfigDispatcherServletInitializer {

        @Override
        protected Class<?>[] getRootConfigClasses() {
            return new Class<?>[] {RootConfig.class};
        }

        @Override
        protected Class<?>[] getServletConfigClasses() {
            return new Class<?>[] {WebConfig.class};
        }

        @Override
        protected String[] getServletMappings() {
            return new String[] {"/"};
        }

        @Override
        protected Filter[] getServletFilters() {
            return new Filter[] {new CharacterEncodingFilter("UTF-8", true)};
        }

        @Override
        protected void customizeRegistration(ServletRegistration.Dynamic registration) {
            // The context's temporary directory; parts are spooled to it past 16 KiB.
            registration.setMultipartConfig(new MultipartConfigElement("", MAX_FILE_SIZE, 2 * MAX_FILE_SIZE, 16 * 1024));
        }
    }

    /** The root context: the services the controllers share. */
    @Configuration
    public static class RootConfig {

        @Bean
        public Inventory inventory() {
            return new Inventory();
        }

        @Bean
        public SpringMvcControllers.Streams streams() {
            return new SpringMvcControllers.Streams();
        }

        /** The threads that complete deferred results and send server-sent events; not the container's. */
        @Bean(destroyMethod = "shutdownNow")
        public ScheduledExecutorService workers() {
            return Executors.newScheduledThreadPool(2, Thread.ofPlatform().name("spring-worker-", 0).daemon().factory());
        }
    }

    /** The DispatcherServlet's context: MVC, the controllers, resources and the default servlet. */
    @Configuration
    @EnableWebMvc
    @Import({SpringMvcControllers.Items.class, SpringMvcControllers.Upload.class, SpringMvcControllers.Events.class, SpringMvcControllers.Pages.class,
        SpringMvcControllers.Container.class, SpringMvcControllers.Errors.class})
    public static class WebConfig implements WebMvcConfigurer {

        /** The threads that run the controllers' {@code Callable}s. */
        @Bean(destroyMethod = "shutdownNow")
        public ExecutorService callables() {
            return Executors.newFixedThreadPool(2, Thread.ofPlatform().name("spring-callable-", 0).daemon().factory());
        }

        @Override
        public void addResourceHandlers(ResourceHandlerRegistry registry) {
            registry.addResourceHandler("/static/**").addResourceLocations("classpath:/frameworks/static/");
        }

        @Override
        public void configureDefaultServletHandling(DefaultServletHandlerConfigurer configurer) {
            configurer.enable();
        }

        @Override
        public void configureAsyncSupport(AsyncSupportConfigurer configurer) {
            configurer.setTaskExecutor(new TaskExecutorAdapter(callables()));
            configurer.setDefaultTimeout(10_000);
        }
    }
}
