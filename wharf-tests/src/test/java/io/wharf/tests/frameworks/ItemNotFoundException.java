package io.wharf.tests.frameworks;

/** No item has the id asked for; the test applications map it to 404 (a Spring advice, a Jersey exception mapper). */
public final class ItemNotFoundException extends RuntimeException {

    public ItemNotFoundException(long id) {
        super("no item " + id);
    }
}
