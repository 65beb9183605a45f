/**
 * Login services for the servlet container's security ({@code io.wharf.servlet.security}) in
 * real deployments: {@link io.wharf.login.PasswordFileLoginService} keeps users in a text file
 * it reloads when it changes, {@link io.wharf.login.JdbcLoginService} in SQL tables. Both keep
 * passwords only as one-way hashes ({@link io.wharf.login.PasswordHash}: Argon2id, or BCrypt
 * from other tools), checked by Spring Security's crypto module on Bouncy Castle.
 */
module io.wharf.login {
    requires transitive io.wharf.servlet;
    requires transitive java.sql;
    requires org.slf4j;
    requires spring.security.crypto;
    // spring-security-crypto is an automatic module: it declares nothing, so what its encoders
    // load at run time (Argon2 from Bouncy Castle, its loggers from Commons Logging) is named here
    // for a module path to resolve it.
    requires org.bouncycastle.provider;
    requires org.apache.commons.logging;

    exports io.wharf.login;
}
