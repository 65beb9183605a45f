package io.wharf.jsp;

import java.util.Locale;

/** The EL functions of the tests' tag libraries: public static methods, as a TLD declares them. */
public final class TagFunctions {

    private TagFunctions() {
    }

    public static String repeat(String text, int times) {
        return text.repeat(times);
    }

    public static String upper(String text) {
        return text.toUpperCase(Locale.ROOT);
    }
}
