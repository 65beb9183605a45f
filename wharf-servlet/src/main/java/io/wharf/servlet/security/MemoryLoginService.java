package io.wharf.servlet.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Users with passwords and roles kept in memory, for tests, demos and small embedded servers:
 * it keeps passwords as given, so it can answer DIGEST login, and it answers an unknown user at
 * once, so the time of an answer tells whether a user exists. For real deployments use a store
 * of one-way hashes that times every answer alike (the wharf-login module). Thread-safe.
 */
public final class MemoryLoginService implements LoginService {

    private final String name;
    private final Map<String, Entry> users = new ConcurrentHashMap<>();

    private record Entry(String password, Set<String> roles) {
    }

    /** @param name the realm's name */
    public MemoryLoginService(String name) {
        this.name = name;
    }

    /** Adds or replaces a user. */
    public MemoryLoginService addUser(String username, String password, String... roles) {
        users.put(username, new Entry(password, Set.of(roles)));
        return this;
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public AuthenticatedUser login(String username, String password) {
        Entry entry = username == null ? null : users.get(username);
        if (entry == null || password == null) {
            return null;
        }
        boolean equal = MessageDigest.isEqual(entry.password().getBytes(StandardCharsets.UTF_8), password.getBytes(StandardCharsets.UTF_8));
        return equal ? new AuthenticatedUser(username, entry.roles()) : null;
    }

    @Override
    public AuthenticatedUser user(String username) {
        Entry entry = users.get(username);
        return entry == null ? null : new AuthenticatedUser(username, entry.roles());
    }

    @Override
    public String digestSecret(String username, String realm, String algorithm) {
        Entry entry = users.get(username);
        if (entry == null) {
            return null;
        }
        try {
            MessageDigest digest = MessageDigest.getInstance(algorithm);
            return HexFormat.of().formatHex(digest.digest((username + ":" + realm + ":" + entry.password()).getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException x) {
            return null;
        }
    }
}
