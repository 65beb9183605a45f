package io.wharf.webapp;

/**
 * A web application that cannot be deployed, with the reason in words: a javax.servlet
 * application, a WAR entry that would land outside its directory, an element Wharf does not
 * support yet, a class that cannot be loaded. Thrown by {@link WebApplication#prepare} and
 * {@link WebApplication#start}; the deployer logs it and keeps the other applications running.
 */
public class DeploymentException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param message what is wrong and, where it helps, what to do */
    public DeploymentException(String message) {
        super(message);
    }

    /** @param message what is wrong; @param cause the failure underneath */
    public DeploymentException(String message, Throwable cause) {
        super(message, cause);
    }
}
