package io.wharf.login;

import java.util.Set;

/**
 * The rules for user names and role names that every store of this module keeps, so a user
 * moves between a password file and a table unchanged. A name is 1 to {@value #MAX_NAME}
 * characters with no control character, no colon (the password file's separator) and no space
 * at either end (a certificate's CN such as {@code Ann Lee} is a valid name). A role is 1 to
 * {@value #MAX_ROLE} letters, digits, {@code _}, {@code .} or {@code -}: no comma (the file's
 * role separator) and never the servlet specification's {@code *} or {@code **}. Stateless.
 */
final class UserNames {

    static final int MAX_NAME = 256;
    static final int MAX_ROLE = 128;

    private UserNames() {
    }

    /** @return why {@code name} is not a valid user name, or null when it is */
    static String nameProblem(String name) {
        if (name == null || name.isEmpty()) {
            return "the user name is empty";
        }
        if (name.length() > MAX_NAME) {
            return "the user name is longer than " + MAX_NAME + " characters";
        }
        if (Character.isWhitespace(name.charAt(0)) || Character.isWhitespace(name.charAt(name.length() - 1))) {
            return "the user name '" + name + "' starts or ends with a space";
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == ':' || Character.isISOControl(c)) {
                return "the user name '" + printable(name) + "' has a colon or a control character";
            }
        }
        return null;
    }

    /** @return why {@code role} is not a valid role name, or null when it is */
    static String roleProblem(String role) {
        if (role == null || role.isEmpty()) {
            return "a role is empty";
        }
        if (role.length() > MAX_ROLE) {
            return "the role '" + role.substring(0, 20) + "...' is longer than " + MAX_ROLE + " characters";
        }
        for (int i = 0; i < role.length(); i++) {
            char c = role.charAt(i);
            if (!(Character.isLetterOrDigit(c) || c == '_' || c == '.' || c == '-')) {
                return "the role '" + printable(role) + "' has a character other than letters, digits, '_', '.' and '-'";
            }
        }
        return null;
    }

    /** @throws IllegalArgumentException when {@code name} is not a valid user name */
    static String checkName(String name) {
        String problem = nameProblem(name);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        return name;
    }

    /** @throws IllegalArgumentException when a role is not valid */
    static Set<String> checkRoles(Set<String> roles) {
        for (String role : roles) {
            String problem = roleProblem(role);
            if (problem != null) {
                throw new IllegalArgumentException(problem);
            }
        }
        return Set.copyOf(roles);
    }

    /** @return {@code text} with control characters shown as {@code \\uXXXX}, for a message */
    private static String printable(String text) {
        StringBuilder shown = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isISOControl(c)) {
                shown.append(String.format("\\u%04x", (int) c));
            } else {
                shown.append(c);
            }
        }
        return shown.toString();
    }
}
