package webapps;

/** An application's own exception, for an error page by exception type. */
public class AppException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public AppException(String message) {
        super(message);
    }
}
