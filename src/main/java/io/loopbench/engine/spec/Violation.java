package io.loopbench.engine.spec;

/**
 * One rule a run specification breaks: the field, the value given and what is allowed.
 *
 * @param field   the field's name as in JSON (a cross-field rule names its fields joined by {@code ×})
 * @param value   the value given, as text
 * @param allowed the allowed range or values
 */
public record Violation(String field, String value, String allowed) {

    public String message() {
        return field + " = " + value + " is out of range: allowed " + allowed;
    }
}
