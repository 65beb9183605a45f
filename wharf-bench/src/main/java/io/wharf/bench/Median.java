package io.wharf.bench;

import java.util.List;
import java.util.function.ToDoubleFunction;

/** The median of one value over the rounds of a macro run; called by the macros when they print their summaries. */
final class Median {

    private Median() {
    }

    /** @return the median of {@code value} over {@code runs}, NaN when there are none */
    static <T> double of(List<T> runs, ToDoubleFunction<T> value) {
        double[] values = runs.stream().mapToDouble(value).sorted().toArray();
        if (values.length == 0) {
            return Double.NaN;
        }
        int middle = values.length / 2;
        return values.length % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
    }
}
