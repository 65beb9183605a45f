package io.wharf.login;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The password file's format, read and written: UTF-8 text, one user a line as
 * {@code name:hash:role1,role2} (the roles may be empty: {@code name:hash:} or {@code name:hash}),
 * blank lines and lines starting with {@code #} ignored. The hash is an Argon2id or BCrypt one
 * ({@link PasswordHash}), whose characters include neither a colon nor a comma. A bad line makes
 * the whole file bad, with a message naming the file and the line. Stateless; called by
 * {@link PasswordFileLoginService} on whichever thread loads or reloads, and by
 * {@link PasswordLineCommand}.
 */
final class PasswordFile {

    private PasswordFile() {
    }

    /**
     * @return the users of {@code file} by name, in the file's order
     * @throws IOException when it cannot be read, or naming the file and the first bad line
     */
    static Map<String, StoredUser> read(Path file) throws IOException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (CharacterCodingException x) {
            throw new IOException(file + ": not UTF-8 text", x);
        }
        Map<String, StoredUser> users = new LinkedHashMap<>();
        for (int number = 1; number <= lines.size(); number++) {
            String line = lines.get(number - 1).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            StoredUser user;
            try {
                user = parse(line);
            } catch (IllegalArgumentException x) {
                throw new IOException(file + ":" + number + ": " + x.getMessage());
            }
            if (users.putIfAbsent(user.name(), user) != null) {
                throw new IOException(file + ":" + number + ": the user '" + user.name() + "' is named again");
            }
        }
        return users;
    }

    /**
     * @return the user of one line
     * @throws IllegalArgumentException saying what is wrong with it
     */
    static StoredUser parse(String line) {
        String[] fields = line.split(":", -1);
        if (fields.length < 2 || fields.length > 3) {
            throw new IllegalArgumentException("expected name:hash:role1,role2 but found " + (fields.length - 1)
                + (fields.length == 2 ? " colon" : " colons"));
        }
        String name = fields[0];
        String problem = UserNames.nameProblem(name);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        PasswordHash hash;
        try {
            hash = PasswordHash.of(fields[1]);
        } catch (IllegalArgumentException x) {
            throw new IllegalArgumentException("the password hash of '" + name + "': " + x.getMessage(), x);
        }
        Set<String> roles = new LinkedHashSet<>();
        if (fields.length == 3 && !fields[2].isBlank()) {
            for (String role : Arrays.asList(fields[2].split(",", -1))) {
                String trimmed = role.strip();
                problem = UserNames.roleProblem(trimmed);
                if (problem != null) {
                    throw new IllegalArgumentException(problem + " (user '" + name + "')");
                }
                roles.add(trimmed);
            }
        }
        return new StoredUser(name, hash, roles);
    }

    /** @return the line of a user: {@code name:hash:role1,role2} */
    static String line(String name, PasswordHash hash, List<String> roles) {
        UserNames.checkName(name);
        UserNames.checkRoles(Set.copyOf(roles));
        return name + ":" + hash.encoded() + ":" + String.join(",", roles);
    }
}
