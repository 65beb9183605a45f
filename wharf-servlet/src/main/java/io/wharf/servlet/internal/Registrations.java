package io.wharf.servlet.internal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The servlets and filters registered in a context, their url-patterns and filter mappings,
 * in the order they were added: what {@code ServletContext.addServlet} and {@code addFilter}
 * fill and what the context turns into its mapping tables when it starts. It can remember what
 * was there before a start ({@link #mark()}) and go back to it after the stop ({@link #reset()}),
 * so the registrations an initializer makes are made afresh on the next start.
 *
 * <p><b>Threads.</b> Changed on the deploying thread; read under its own lock from any thread.
 */
final class Registrations {

    private final Map<String, ServletEntry> servlets = new LinkedHashMap<>();
    private final Map<String, ServletEntry> patterns = new LinkedHashMap<>();
    private final Map<String, FilterEntry> filters = new LinkedHashMap<>();
    private final List<FilterMapping<FilterEntry>> filterMappingsAfter = new ArrayList<>();
    private final List<FilterMapping<FilterEntry>> filterMappingsBefore = new ArrayList<>();
    private Mark mark;

    /** What there was before a start. */
    private record Mark(Set<String> servlets, Set<String> patterns, Set<String> filters, int mappingsAfter, int mappingsBefore) {
    }

    /** @return the new entry, or null when a servlet of that name exists (section 4.4.3.1) */
    synchronized ServletEntry addServlet(ServletEntry entry) {
        if (servlets.containsKey(entry.getName())) {
            return null;
        }
        servlets.put(entry.getName(), entry);
        return entry;
    }

    /** @return the new entry, or null when a filter of that name exists */
    synchronized FilterEntry addFilter(FilterEntry entry) {
        if (filters.containsKey(entry.getName())) {
            return null;
        }
        filters.put(entry.getName(), entry);
        return entry;
    }

    synchronized ServletEntry servlet(String name) {
        return servlets.get(name);
    }

    synchronized FilterEntry filter(String name) {
        return filters.get(name);
    }

    /** @return the servlet {@code pattern} is mapped to, or null */
    synchronized ServletEntry servletMappedTo(String pattern) {
        UrlPatterns.parse(pattern);
        return patterns.get(pattern);
    }

    synchronized void mapServlet(String pattern, ServletEntry servlet) {
        UrlPatterns.parse(pattern);
        patterns.put(pattern, servlet);
    }

    /** Adds a filter mapping after the declared ones ({@code isMatchAfter}) or before them. */
    synchronized void mapFilter(FilterMapping<FilterEntry> mapping, boolean matchAfter) {
        (matchAfter ? filterMappingsAfter : filterMappingsBefore).add(mapping);
    }

    synchronized List<ServletEntry> servlets() {
        return List.copyOf(servlets.values());
    }

    synchronized List<FilterEntry> filters() {
        return List.copyOf(filters.values());
    }

    synchronized Map<String, ServletEntry> servletsByName() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(servlets));
    }

    synchronized Map<String, FilterEntry> filtersByName() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(filters));
    }

    /** @return the servlet mapping table of these registrations */
    synchronized ServletMappings<ServletEntry> servletMappings() {
        ServletMappings<ServletEntry> table = new ServletMappings<>();
        for (Map.Entry<String, ServletEntry> entry : patterns.entrySet()) {
            table.add(entry.getKey(), entry.getValue());
        }
        return table;
    }

    /** @return the filter mapping table: the mappings added before the declared ones first */
    synchronized FilterMappings<FilterEntry> filterMappings() {
        FilterMappings<FilterEntry> table = new FilterMappings<>();
        for (FilterMapping<FilterEntry> mapping : filterMappingsBefore) {
            table.addBeforeDeclared(mapping);
        }
        for (FilterMapping<FilterEntry> mapping : filterMappingsAfter) {
            table.add(mapping);
        }
        return table;
    }

    /** Remembers what is registered now, before a start. */
    synchronized void mark() {
        mark = new Mark(Set.copyOf(servlets.keySet()), Set.copyOf(patterns.keySet()), Set.copyOf(filters.keySet()),
            filterMappingsAfter.size(), filterMappingsBefore.size());
    }

    /** Forgets what was registered since {@link #mark()}. */
    synchronized void reset() {
        Mark before = mark;
        if (before == null) {
            return;
        }
        servlets.keySet().retainAll(before.servlets());
        patterns.keySet().retainAll(before.patterns());
        filters.keySet().retainAll(before.filters());
        trim(filterMappingsAfter, before.mappingsAfter());
        trim(filterMappingsBefore, before.mappingsBefore());
    }

    private static void trim(List<?> list, int size) {
        while (list.size() > size) {
            list.remove(list.size() - 1);
        }
    }
}
