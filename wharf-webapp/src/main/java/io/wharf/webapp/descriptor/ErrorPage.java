package io.wharf.webapp.descriptor;

import java.util.Optional;

/**
 * An {@code <error-page>}: by status code, by exception type, or the default page (neither).
 *
 * @param errorCode {@code <error-code>}
 * @param exceptionType {@code <exception-type>}, a class name
 * @param location the page, a path in the application starting with '/'
 */
public record ErrorPage(Optional<Integer> errorCode, Optional<String> exceptionType, String location) {

    /** @return whether this is the default error page (no code, no exception type) */
    public boolean isDefault() {
        return errorCode.isEmpty() && exceptionType.isEmpty();
    }

    /** @return what the page is for: "404", "java.io.IOException" or "default"; two pages with one key conflict */
    public String key() {
        return errorCode.map(String::valueOf).or(() -> exceptionType).orElse("default");
    }
}
