package io.loopbench.engine.spec;

import java.util.List;
import java.util.stream.Collectors;

/** A run specification was rejected; {@link #violations()} lists every rule it breaks, not only the first. */
public class InvalidSpecException extends IllegalArgumentException {

    private final transient List<Violation> violations;

    public InvalidSpecException(List<Violation> violations) {
        super(violations.stream().map(Violation::message).collect(Collectors.joining("; ")));
        this.violations = List.copyOf(violations);
    }

    public List<Violation> violations() {
        return violations;
    }
}
