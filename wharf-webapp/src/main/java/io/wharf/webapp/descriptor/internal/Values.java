package io.wharf.webapp.descriptor.internal;

import java.util.Locale;
import java.util.Map;

/**
 * The schema's simple types read from an element's trimmed text, with errors that say which
 * element held what; called by the readers on the parsing thread.
 */
final class Values {

    private Values() {
    }

    /** @return the xsd:boolean value of the element ("true", "false", "1", "0") */
    static boolean bool(XmlElement element) {
        return switch (element.text()) {
            case "true", "1" -> true;
            case "false", "0" -> false;
            default -> throw element.fail("<" + element.name() + "> '" + element.text() + "' is not true or false");
        };
    }

    /** @return the xsd:integer value of the element, which must fit an int */
    static int integer(XmlElement element) {
        try {
            return Integer.parseInt(element.text());
        } catch (NumberFormatException e) {
            throw element.fail("<" + element.name() + "> '" + element.text() + "' is not an integer");
        }
    }

    /** @return the xsd:long value of the element */
    static long longInteger(XmlElement element) {
        try {
            return Long.parseLong(element.text());
        } catch (NumberFormatException e) {
            throw element.fail("<" + element.name() + "> '" + element.text() + "' is not an integer");
        }
    }

    /** @return the constant of {@code type} the element names, in the schema's upper case */
    static <E extends Enum<E>> E constant(XmlElement element, Class<E> type) {
        try {
            return Enum.valueOf(type, element.text().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw element.fail("<" + element.name() + "> '" + element.text() + "' is not one of " + java.util.Arrays.toString(type.getEnumConstants()));
        }
    }

    /** Puts a name and value in a map of unique names; throws naming {@code element} when the name is already there. */
    static void putUnique(Map<String, String> map, String name, String value, XmlElement element, String what) {
        if (map.putIfAbsent(name, value) != null) {
            throw element.fail("duplicate " + what + " '" + name + "'");
        }
    }
}
