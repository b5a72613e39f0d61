package io.loopbench.engine.spec;

import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * An enum whose constants are known by one lowercase name (the constant's name in lower case), used alike in
 * JSON, on the command line, in reports and in docs.
 */
public interface Labeled {

    String name();

    @JsonValue
    default String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The constant with this label, or an {@link IllegalArgumentException} that lists the allowed labels. */
    static <E extends Enum<E> & Labeled> E parse(Class<E> type, String text) {
        for (E e : type.getEnumConstants()) {
            if (e.label().equals(text)) {
                return e;
            }
        }
        throw new IllegalArgumentException("'" + text + "' is not one of " + allowed(type));
    }

    static <E extends Enum<E> & Labeled> String allowed(Class<E> type) {
        return Arrays.stream(type.getEnumConstants()).map(Labeled::label).collect(Collectors.joining(", "));
    }
}
