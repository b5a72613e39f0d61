package io.loopbench.engine.server;

import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * Server-side error counts per phase tag, shared by every server handler of a repetition. Thread-safe; only
 * errors touch it, so the echo path never contends on it.
 */
public final class ServerStats {
    final LongAdder[] contentErrors = {new LongAdder(), new LongAdder()};
    final LongAdder[] exceptions = {new LongAdder(), new LongAdder()};
    private final AtomicReference<String> firstError = new AtomicReference<>();

    void noteError(String text) {
        firstError.compareAndSet(null, text);
    }

    /** Malformed messages the servers received in the phase with this tag. */
    public long contentErrors(int tag) {
        return contentErrors[tag].sum();
    }

    /** Exceptions raised in the servers' pipelines in the phase with this tag, failed echoes included. */
    public long exceptions(int tag) {
        return exceptions[tag].sum();
    }

    public String firstError() {
        return firstError.get();
    }
}
