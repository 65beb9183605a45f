package io.wharf.tests.frameworks;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/** The items a test shop holds, in memory; thread-safe. Starts with three. */
public final class Inventory {

    private final Map<Long, Item> items = new ConcurrentSkipListMap<>();
    private final AtomicLong ids = new AtomicLong();

    public Inventory() {
        add("anchor", 120);
        add("bollard", 80);
        add("capstan", 300);
    }

    /** Adds an item named {@code name}, with the next id. */
    public Item add(String name, int price) {
        Item item = new Item(ids.incrementAndGet(), name, price);
        items.put(item.id(), item);
        return item;
    }

    public Optional<Item> find(long id) {
        return Optional.ofNullable(items.get(id));
    }

    /** @return the items whose name contains {@code text}, at most {@code limit}, by id */
    public List<Item> search(String text, int limit) {
        return items.values().stream().filter(item -> item.name().contains(text)).limit(limit).toList();
    }
}
