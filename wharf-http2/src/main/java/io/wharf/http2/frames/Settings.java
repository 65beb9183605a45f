package io.wharf.http2.frames;

import java.util.Arrays;
import java.util.Objects;

/**
 * The settings of one SETTINGS frame: a value for some of the known {@link Setting}s, the
 * others absent (a SETTINGS frame changes only what it names). When a frame names a setting
 * twice, the last value counts, as RFC 9113 section 6.5 processes them in order.
 *
 * <p>Immutable and safe to share; {@link #builder()} makes one.
 */
public final class Settings {

    /** No setting: what an empty SETTINGS frame (and its acknowledgement) carries. */
    public static final Settings EMPTY = new Settings(absent());

    private final long[] values;

    private Settings(long[] values) {
        this.values = values;
    }

    private static long[] absent() {
        long[] values = new long[Setting.values().length];
        Arrays.fill(values, -1);
        return values;
    }

    /** @return a builder with no setting */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the value of {@code setting}, or -1 when this frame does not name it */
    public long get(Setting setting) {
        return values[setting.ordinal()];
    }

    /** @return whether this frame names {@code setting} */
    public boolean contains(Setting setting) {
        return values[setting.ordinal()] >= 0;
    }

    /** @return the number of settings named */
    public int size() {
        int size = 0;
        for (long value : values) {
            if (value >= 0) {
                size++;
            }
        }
        return size;
    }

    /** @return whether no setting is named */
    public boolean isEmpty() {
        return size() == 0;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Settings settings && Arrays.equals(values, settings.values);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("Settings{");
        for (Setting setting : Setting.values()) {
            if (contains(setting)) {
                text.append(text.length() > 9 ? ", " : "").append(setting).append('=').append(get(setting));
            }
        }
        return text.append('}').toString();
    }

    /** Collects settings; used by one thread. */
    public static final class Builder {
        private final long[] values = absent();

        private Builder() {
        }

        /**
         * @throws IllegalArgumentException when {@code value} is outside what RFC 9113 allows for it
         */
        public Builder set(Setting setting, long value) {
            String problem = Objects.requireNonNull(setting, "setting").check(value);
            if (problem != null) {
                throw new IllegalArgumentException(problem);
            }
            values[setting.ordinal()] = value;
            return this;
        }

        /** @return the settings collected so far */
        public Settings build() {
            return new Settings(values.clone());
        }
    }
}
