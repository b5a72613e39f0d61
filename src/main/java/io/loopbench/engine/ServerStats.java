package io.loopbench.engine;

import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * Server-side error counts per phase tag, shared by every server handler of a repetition. Thread-safe; only
 * errors touch it, so the echo path never contends on it.
 */
final class ServerStats {
    final LongAdder[] contentErrors = {new LongAdder(), new LongAdder()};
    final LongAdder[] sendFailures = {new LongAdder(), new LongAdder()};
    final LongAdder[] exceptions = {new LongAdder(), new LongAdder()};
    private final AtomicReference<String> firstError = new AtomicReference<>();

    void noteError(String text) {
        firstError.compareAndSet(null, text);
    }

    String firstError() {
        return firstError.get();
    }
}
