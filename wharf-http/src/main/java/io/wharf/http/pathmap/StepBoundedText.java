package io.wharf.http.pathmap;

import io.wharf.http.BadMessageException;
import io.wharf.http.HttpStatus;

/**
 * A path as the regex engine reads it, counting every character read and giving up once a
 * budget is spent, so that a pattern that backtracks badly cannot make one request cost more
 * than a bounded amount of time. {@link java.util.regex.Matcher} reads its input only through
 * {@link #charAt(int)}, so the count bounds the work of one match.
 *
 * <p>Made for one match by {@link RegexPathSpec#matched(String)} and used only by that thread.
 */
final class StepBoundedText implements CharSequence {

    private final String path;
    private long stepsLeft;

    StepBoundedText(String path, long budget) {
        this.path = path;
        this.stepsLeft = budget;
    }

    @Override
    public int length() {
        return path.length();
    }

    /** @throws BadMessageException (400) once the budget is spent; the reason does not echo the path */
    @Override
    public char charAt(int index) {
        if (--stepsLeft < 0) {
            throw new BadMessageException(HttpStatus.BAD_REQUEST_400,
                    "path of length " + path.length() + " needs too many steps to match a regex path spec");
        }
        return path.charAt(index);
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        return path.substring(start, end);
    }

    @Override
    public String toString() {
        return path;
    }
}
