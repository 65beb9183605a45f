package io.wharf.webapp.descriptor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

/** FragmentOrdering: the examples of Servlet 6.1 section 8.2.2, absolute ordering, and the errors. */
class FragmentOrderingTest {

    /** A fragment named {@code name} (a "jar" of that name), "" for no name. */
    private static WebDescriptor fragment(String name, RelativeOrdering ordering) {
        WebDescriptor.Builder builder = WebDescriptor.builder(name.isEmpty() ? "plain.jar" : name + ".jar", DescriptorKind.WEB_FRAGMENT);
        builder.fragmentName = name.isEmpty() ? Optional.empty() : Optional.of(name);
        builder.ordering = ordering;
        return builder.build();
    }

    private static WebDescriptor fragment(String name) {
        return fragment(name, RelativeOrdering.NONE);
    }

    private static RelativeOrdering before(boolean others, String... names) {
        return new RelativeOrdering(List.of(names), others, List.of(), false);
    }

    private static RelativeOrdering after(boolean others, String... names) {
        return new RelativeOrdering(List.of(), false, List.of(names), others);
    }

    private static String names(List<WebDescriptor> ordered) {
        return ordered.stream().map(fragment -> fragment.fragmentName().orElse("plain")).collect(Collectors.joining(","));
    }

    @Test
    void specExampleOne() {
        // A: after others and C; B: before others; C: after others; D, E: none; F: before others and B.
        List<WebDescriptor> ordered = FragmentOrdering.relative(List.of(
            fragment("A", after(true, "C")), fragment("B", before(true)), fragment("C", after(true)),
            fragment("D"), fragment("E"), fragment("F", before(true, "B"))));
        assertEquals("F,B,D,E,C,A", names(ordered));
    }

    @Test
    void specExampleTwoWithAnUnnamedFragment() {
        // noname: after others, before C; B: before others; C: none; D: after others; E: before others; F: none.
        List<WebDescriptor> ordered = FragmentOrdering.relative(List.of(
            fragment("", new RelativeOrdering(List.of("C"), false, List.of(), true)), fragment("B", before(true)),
            fragment("C"), fragment("D", after(true)), fragment("E", before(true)), fragment("F")));
        String result = names(ordered);
        List<String> allowed = List.of("B,E,F,plain,C,D", "B,E,F,plain,D,C", "E,B,F,plain,C,D", "E,B,F,plain,D,C", "E,B,F,D,plain,C");
        assertTrue(allowed.contains(result), result);
        assertEquals("B,E,F,plain,C,D", result, "of the spec's outcomes, the one that keeps the order found");
    }

    @Test
    void specExampleThree() {
        // A: after B; B: none; C: before others; D: none.
        String result = names(FragmentOrdering.relative(List.of(
            fragment("A", after(false, "B")), fragment("B"), fragment("C", before(true)), fragment("D"))));
        assertTrue(List.of("C,B,D,A", "C,D,B,A", "C,B,A,D").contains(result), result);
    }

    @Test
    void anExplicitNameBeatsOthers() {
        // A: after others but before C; B: before others and before C; C: none.
        assertEquals("B,A,C", names(FragmentOrdering.relative(List.of(
            fragment("A", new RelativeOrdering(List.of("C"), false, List.of(), true)),
            fragment("B", before(true, "C")), fragment("C")))));
    }

    @Test
    void withoutOrderingsTheOrderFoundIsKept() {
        assertEquals("C,A,B", names(FragmentOrdering.relative(List.of(fragment("C"), fragment("A"), fragment("B")))));
    }

    @Test
    void namesOfMissingFragmentsAreIgnored() {
        assertEquals("B,A", names(FragmentOrdering.relative(List.of(fragment("A", after(false, "B", "Z")), fragment("B", before(false, "Y"))))));
    }

    @Test
    void aCycleIsAnErrorNamingTheFragments() {
        DescriptorException failure = assertThrows(DescriptorException.class, () -> FragmentOrdering.relative(List.of(
            fragment("A", before(false, "B")), fragment("B", before(false, "C")), fragment("C", before(false, "A")), fragment("D"))));
        assertEquals("the fragments' <ordering>s contradict one another (a cycle among 'A' (A.jar), 'B' (B.jar), 'C' (C.jar))",
            failure.getMessage());
    }

    @Test
    void afterOthersButBeforeOneThatIsBeforeOthersIsACycle() {
        // A after others yet before C; C before others: B stands between them both ways.
        assertThrows(DescriptorException.class, () -> FragmentOrdering.relative(List.of(
            fragment("A", new RelativeOrdering(List.of("C"), false, List.of(), true)), fragment("B"), fragment("C", before(true)))));
    }

    @Test
    void duplicateNamesAreAnError() {
        WebDescriptor first = fragment("A");
        WebDescriptor.Builder second = WebDescriptor.builder("other.jar", DescriptorKind.WEB_FRAGMENT);
        second.fragmentName = Optional.of("A");
        DescriptorException failure = assertThrows(DescriptorException.class,
            () -> FragmentOrdering.relative(List.of(first, second.build())));
        assertEquals("two fragments are named 'A': A.jar and other.jar", failure.getMessage());
        assertThrows(DescriptorException.class, () -> FragmentOrdering.absolute(
            new AbsoluteOrdering(List.of("A"), OptionalInt.empty()), List.of(first, second.build())));
    }

    @Test
    void absoluteOrderingWithOthers() {
        List<WebDescriptor> found = List.of(fragment("A"), fragment(""), fragment("B"), fragment("C"), fragment("D"));
        AbsoluteOrdering ordering = new AbsoluteOrdering(List.of("C", "Z", "A"), OptionalInt.of(1));
        assertEquals("C,plain,B,D,A", names(FragmentOrdering.absolute(ordering, found)));
        assertEquals("plain,B,D,C,A", names(FragmentOrdering.absolute(new AbsoluteOrdering(List.of("C", "A"), OptionalInt.of(0)), found)));
        assertEquals("C,A,plain,B,D", names(FragmentOrdering.absolute(new AbsoluteOrdering(List.of("C", "A"), OptionalInt.of(2)), found)));
    }

    @Test
    void absoluteOrderingWithoutOthersLeavesTheRestOut() {
        List<WebDescriptor> found = List.of(fragment("A"), fragment(""), fragment("B"), fragment("C"));
        assertEquals("B,A", names(FragmentOrdering.absolute(new AbsoluteOrdering(List.of("B", "A"), OptionalInt.empty()), found)));
        assertEquals("", names(FragmentOrdering.absolute(new AbsoluteOrdering(List.of(), OptionalInt.empty()), found)));
    }

    @Test
    void webXmlsAbsoluteOrderingOverridesTheFragmentsOwn() {
        WebDescriptor webXml = Descriptors.webXml("<absolute-ordering><name>B</name><name>A</name></absolute-ordering>\n");
        List<WebDescriptor> found = List.of(fragment("A"), fragment("B", after(false, "A")));
        assertEquals("B,A", names(FragmentOrdering.order(webXml, found)));
        assertEquals("A,B", names(FragmentOrdering.order(Descriptors.webXml(""), found)));
    }

    @Test
    void parsedFragmentsOrderAsTheirDocumentsSay() {
        WebDescriptor a = Descriptors.fragment("a.jar", "<name>A</name><ordering><after><others/></after></ordering>\n");
        WebDescriptor b = Descriptors.fragment("b.jar", "<name>B</name>\n");
        WebDescriptor c = Descriptors.fragment("c.jar", "<name>C</name><ordering><before><name>B</name></before></ordering>\n");
        assertEquals("C,B,A", names(FragmentOrdering.relative(List.of(a, b, c))));
        assertEquals(Arrays.asList(c, b, a), FragmentOrdering.relative(List.of(a, b, c)));
    }
}
