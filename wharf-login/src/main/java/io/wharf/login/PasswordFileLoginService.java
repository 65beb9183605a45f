package io.wharf.login;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

import io.wharf.servlet.security.AuthenticatedUser;
import io.wharf.servlet.security.LoginService;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link LoginService} whose users are the lines of a text file, {@code name:hash:role1,role2}
 * with Argon2id or BCrypt hashes (docs/login.md; {@link PasswordLineCommand} or
 * {@code ./wharf passwd} makes a line):
 *
 * <pre>{@code
 * # users of the admin console
 * ann:$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$...:admin,user
 * bob:$2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW:user
 * }</pre>
 *
 * <p>The file is read when the service is made, and a bad file fails then. Afterwards it is read
 * again when it changes (its modification time, size or identity), looked at on a login at most
 * once every {@link #setReloadInterval reload interval}; a new file that is bad keeps the users
 * of the last good one and is logged with the file and line at fault, once per version of the
 * file. Write a new version to a temporary file and move it over the old one, so a login never
 * reads half of it.
 *
 * <p>An unknown user costs the same time as a wrong password ({@code PasswordCheck} checks a dummy
 * hash). DIGEST login cannot work with one-way hashes: {@link #digestSecret} stays null. CLIENT-CERT
 * login works: {@link #user(String)} finds the user a certificate's CN names.
 *
 * <p>Threads: the servlet context calls it from request threads, concurrently; the users are an
 * immutable map swapped whole, and the request thread whose login falls due checks the file and
 * reloads it (others go on with the old users meanwhile).
 */
public final class PasswordFileLoginService implements LoginService {

    /** How often the file is looked at unless set otherwise. */
    public static final Duration DEFAULT_RELOAD_INTERVAL = Duration.ofSeconds(10);

    private static final Logger LOG = LoggerFactory.getLogger(PasswordFileLoginService.class);

    /** What identifies a version of the file: when a field differs, it changed. */
    private record Version(Object modified, long size, Object fileKey) {
        static Version of(Path file) throws IOException {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            return new Version(attributes.lastModifiedTime(), attributes.size(), attributes.fileKey());
        }
    }

    /** The users of one version of the file. */
    private record Loaded(Map<String, StoredUser> users, Version version) {
    }

    private final String name;
    private final Path file;
    private volatile Loaded loaded;
    /** The version that failed to load last, so a bad file is read and logged once, not on every check. */
    private Version refused;
    private volatile long intervalNanos = DEFAULT_RELOAD_INTERVAL.toNanos();
    /** {@link System#nanoTime()} at which the file is next looked at. */
    private final AtomicLong nextCheck;
    final VerifiedPasswords verified = new VerifiedPasswords();

    /**
     * Reads the users of {@code file}.
     *
     * @param name the realm's name
     * @throws IOException when the file cannot be read, or naming the file and the first bad line
     */
    public PasswordFileLoginService(String name, Path file) throws IOException {
        this.name = Objects.requireNonNull(name, "name");
        this.file = Objects.requireNonNull(file, "file");
        Version version = Version.of(file);
        this.loaded = new Loaded(PasswordFile.read(file), version);
        this.nextCheck = new AtomicLong(System.nanoTime() + intervalNanos);
    }

    /**
     * Sets how often, at most, a login looks at whether the file changed; {@link Duration#ZERO}
     * looks on every login.
     */
    public void setReloadInterval(Duration interval) {
        if (interval.isNegative()) {
            throw new IllegalArgumentException("the reload interval is negative: " + interval);
        }
        intervalNanos = interval.toNanos();
        nextCheck.set(System.nanoTime() + intervalNanos);
    }

    public Duration getReloadInterval() {
        return Duration.ofNanos(intervalNanos);
    }

    /**
     * Sets how long a password found right is remembered, so that the next login with it (BASIC
     * sends it on every request) skips the slow hash; {@link Duration#ZERO} checks the hash every
     * time. Default 5 minutes. Only an HMAC of name and
     * password under a key made at random for this service is kept, with the stored hash it was
     * checked against: a changed password is checked afresh, and wrong passwords are never remembered.
     */
    public void setVerifiedPasswordLifetime(Duration lifetime) {
        verified.setLifetime(lifetime);
    }

    public Duration getVerifiedPasswordLifetime() {
        return verified.getLifetime();
    }

    /** @return the file the users are read from */
    public Path getFile() {
        return file;
    }

    /**
     * Reads the file again if it changed since it was last read; a bad new file is logged and
     * the users stay as they were. For a caller's own timer; logins call it by themselves.
     *
     * @return whether new users were loaded
     */
    public synchronized boolean reloadIfChanged() {
        Version version;
        try {
            version = Version.of(file);
        } catch (IOException x) {
            LOG.warn("{}: cannot look at the password file {}, keeping its {} users: {}", name, file, loaded.users().size(), x.toString());
            return false;
        }
        if (version.equals(loaded.version()) || version.equals(refused)) {
            return false;
        }
        try {
            loaded = new Loaded(PasswordFile.read(file), version);
            refused = null;
            LOG.info("{}: reloaded {} users from {}", name, loaded.users().size(), file);
            return true;
        } catch (IOException x) {
            refused = version;
            LOG.warn("{}: the changed password file is not used, keeping its {} users of before: {}", name, loaded.users().size(),
                x.getMessage());
            return false;
        }
    }

    /** @return the users now, after looking at the file if that is due */
    private Map<String, StoredUser> users() {
        long now = System.nanoTime();
        long due = nextCheck.get();
        if (now - due >= 0 && nextCheck.compareAndSet(due, now + intervalNanos)) {
            reloadIfChanged();
        }
        return loaded.users();
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public AuthenticatedUser login(String username, String password) {
        return PasswordCheck.login(username == null ? null : users().get(username), password, verified);
    }

    /** @return the user of this name with their roles, for CLIENT-CERT login, or null */
    @Override
    public AuthenticatedUser user(String username) {
        StoredUser user = username == null ? null : users().get(username);
        return user == null ? null : user.authenticated();
    }

    /** @return null: a store of one-way hashes cannot tell DIGEST's secret, so DIGEST login fails for its users */
    @Override
    public String digestSecret(String username, String realm, String algorithm) {
        return null;
    }

    @Override
    public String toString() {
        return "PasswordFileLoginService{" + name + ", " + file + ", " + loaded.users().size() + " users}";
    }
}
