package io.wharf.tests.servlet;

import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * What the differential suite compares of one response besides the status: the significant
 * header fields ({@link Answer} lists them), any further header fields a test names, and the
 * body unless the test says that bodies differ by design.
 *
 * <p>The body of an error response (status 400 and up) is the container's own error page
 * unless the application wrote it, and the specification leaves that page's content to the
 * container (Servlet 6.1 §10.9.2, §15.2.4.8): its body, Content-Type and Content-Length are
 * compared only when the test says so, {@link #ALL_OF_ERRORS}.
 *
 * @param statusOnly whether only the status is compared, nothing else
 * @param body whether the body is compared
 * @param errorBodies whether the body (and its type and length) of an error response is compared too
 * @param headers further header fields compared by value, as sent (less what {@link Answer} takes out)
 * @param derived further fields the test derives from the response (what a challenge's
 *     parameters are, without their random values), compared after the headers
 */
record Compared(boolean statusOnly, boolean body, boolean errorBodies, List<String> headers, List<Derived> derived) {

    /** A field the test derives from a response: its name in reports and in the table, and how to get its value. */
    record Derived(String name, Function<RawResponse, String> value) {
    }

    /** Status, the significant header fields and the body, but not the body of an error response. */
    static final Compared ALL = new Compared(false, true, false, List.of(), List.of());

    /** Status, the significant header fields and the body, also of an error response the application wrote itself. */
    static final Compared ALL_OF_ERRORS = new Compared(false, true, true, List.of(), List.of());

    /** Status and the significant header fields: for responses whose body each container writes its own way. */
    static final Compared WITHOUT_BODY = new Compared(false, false, false, List.of(), List.of());

    /** The status alone: for responses (a 304) whose fields each container chooses its own way. */
    static final Compared STATUS = new Compared(true, false, false, List.of(), List.of());

    /** @return this, also comparing the header fields {@code names} */
    Compared andHeaders(String... names) {
        return new Compared(statusOnly, body, errorBodies, Stream.concat(headers.stream(), Stream.of(names)).toList(), derived);
    }

    /** @return this, also comparing the field {@code name} that {@code value} derives from each response */
    Compared andDerived(String name, Function<RawResponse, String> value) {
        return new Compared(statusOnly, body, errorBodies, headers,
            Stream.concat(derived.stream(), Stream.of(new Derived(name, value))).toList());
    }
}
