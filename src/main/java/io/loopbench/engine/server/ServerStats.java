package io.loopbench.engine.server;

import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * Server-side error counts per phase tag, shared by every server handler of a repetition. Thread-safe; only
 * errors touch it, so the echo path never contends on it.
 */
public final class ServerStats {
    public final LongAdder[] contentErrors = {new LongAdder(), new LongAdder()};
    public final LongAdder[] sendFailures = {new LongAdder(), new LongAdder()};
    public final LongAdder[] exceptions = {new LongAdder(), new LongAdder()};
    private final AtomicReference<String> firstError = new AtomicReference<>();

    void noteError(String text) {
        firstError.compareAndSet(null, text);
    }

    public String firstError() {
        return firstError.get();
    }
}
