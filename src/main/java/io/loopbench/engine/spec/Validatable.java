package io.loopbench.engine.spec;

import java.util.List;

/** A request or specification that can list every rule it breaks at once (empty when it breaks none). */
public interface Validatable {

    List<Violation> violations();
}
