package io.loopbench.engine.spec;

/**
 * How long a repetition warms up: {@code fixed} runs exactly {@code warmupSeconds}; {@code auto} (the default) runs
 * at least {@code warmupSeconds} and then until the engine is steady — throughput stable over consecutive short
 * windows and no JIT compilation for a while — or until {@code warmupMaxSeconds}.
 */
public enum WarmupMode implements Labeled {
    AUTO, FIXED
}
