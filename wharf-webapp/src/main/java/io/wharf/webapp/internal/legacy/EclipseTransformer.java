package io.wharf.webapp.internal.legacy;

import java.net.URL;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import io.wharf.webapp.DeploymentException;

import org.eclipse.transformer.AppOption;
import org.eclipse.transformer.TransformOptions;
import org.eclipse.transformer.Transformer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/**
 * The one class that uses the Eclipse Transformer's API (1.0): it converts an exploded javax.servlet
 * application into an empty directory with Wharf's rules, the resources beside this class, in
 * this process, on the calling (deploying) thread. Loaded only when a conversion runs, after
 * {@link JavaxConversion} checked that the Transformer is there; its method takes and gives only
 * JDK types, so that loading its caller never needs the Transformer.
 *
 * <p><b>The rules.</b> {@value #RENAMES} renames the packages of the APIs the container provides,
 * {@code javax.servlet} with its sub-packages (Servlet, JSP, JSTL) and {@code javax.el}, in class
 * files, JSP sources, {@code META-INF/services} names and manifests, here and in the WEB-INF/lib
 * jars; other {@code javax} packages (the JDK's, or an API the application bundles) keep their
 * names. {@value #TEXT} picks the text substitutions of each descriptor by file name: web.xml and
 * web-fragment.xml get the Jakarta EE namespace in place of Java EE's and J2EE's, their version
 * becomes 5.0 (the Jakarta version of Servlet 4.0's schema) and {@code javax.servlet.} names
 * become {@code jakarta.servlet.}; TLDs, other XML files and tag files get the namespace and the
 * names. The Transformer's messages go to SLF4J at debug level (warnings at warn); its errors
 * become the {@link DeploymentException} that names the file it failed on.
 */
final class EclipseTransformer {

    /** Package renames, in the Transformer's format. */
    static final String RENAMES = "legacy-javax-renames.properties";
    /** Which text substitutions apply to which file names, in the Transformer's "master text" format. */
    static final String TEXT = "legacy-javax-text.properties";
    /** How many of the Transformer's problems a failure's message quotes. */
    private static final int PROBLEMS_QUOTED = 5;

    private EclipseTransformer() {
    }

    /**
     * @param what the source, as messages name it
     * @param input the exploded javax application
     * @param output an empty directory that gets the converted application
     * @throws DeploymentException when the Transformer fails, with its first errors (which name the file)
     */
    static void convert(String what, Path input, Path output) {
        CapturingLogger log = new CapturingLogger();
        Transformer transformer = new Transformer(log, new Options(input, output));
        // Rule names are resolved against the base before the rule loader: the empty output directory holds none.
        transformer.setBase(output.toUri());
        Transformer.ResultCode result = transformer.run();
        if (result != Transformer.ResultCode.SUCCESS_RC) {
            List<String> problems = log.problems.subList(0, Math.min(PROBLEMS_QUOTED, log.problems.size()));
            throw new DeploymentException(what + ": the Eclipse Transformer could not convert it to Jakarta (" + result + "): "
                + (problems.isEmpty() ? "it said nothing more" : String.join("; ", problems)));
        }
    }

    /** The options a command line would give: the input, the output and Wharf's rules. */
    private record Options(Path input, Path output) implements TransformOptions {

        @Override
        public boolean hasOption(AppOption option) {
            return values(option) != null;
        }

        @Override
        public String getOptionValue(AppOption option) {
            List<String> values = values(option);
            return values == null ? null : values.get(0);
        }

        @Override
        public List<String> getOptionValues(AppOption option) {
            return values(option);
        }

        @Override
        public String getDefaultValue(AppOption option) {
            return null;
        }

        @Override
        public Function<String, URL> getRuleLoader() {
            return EclipseTransformer.class::getResource;
        }

        @Override
        public String getInputFileName() {
            return input.toString();
        }

        @Override
        public String getOutputFileName() {
            return output.toString();
        }

        private static List<String> values(AppOption option) {
            return switch (option) {
                case RULES_RENAMES -> List.of(RENAMES);
                case RULES_MASTER_TEXT -> List.of(TEXT);
                default -> null;
            };
        }
    }

    /**
     * Passes the Transformer's messages on to SLF4J (its chatty info as debug) and keeps its
     * warnings and errors for the failure's message. Used by one conversion, on its thread.
     */
    private static final class CapturingLogger extends LegacyAbstractLogger {

        private static final long serialVersionUID = 1L;
        private static final Logger LOG = LoggerFactory.getLogger(EclipseTransformer.class);

        final transient List<String> problems = new ArrayList<>();

        CapturingLogger() {
            this.name = EclipseTransformer.class.getName();
        }

        @Override
        public boolean isTraceEnabled() {
            return LOG.isTraceEnabled();
        }

        @Override
        public boolean isDebugEnabled() {
            return LOG.isDebugEnabled();
        }

        @Override
        public boolean isInfoEnabled() {
            return LOG.isDebugEnabled();
        }

        @Override
        public boolean isWarnEnabled() {
            return true;
        }

        @Override
        public boolean isErrorEnabled() {
            return true;
        }

        @Override
        protected String getFullyQualifiedCallerName() {
            return null;
        }

        @Override
        protected void handleNormalizedLoggingCall(Level level, Marker marker, String pattern, Object[] arguments, Throwable failure) {
            String message = MessageFormatter.basicArrayFormat(pattern, arguments);
            switch (level) {
                case ERROR, WARN -> {
                    problems.add(failure == null ? message : message + " (" + failure + ")");
                    LOG.warn(message, failure);
                }
                case INFO, DEBUG -> LOG.debug(message, failure);
                case TRACE -> LOG.trace(message, failure);
            }
        }
    }
}
