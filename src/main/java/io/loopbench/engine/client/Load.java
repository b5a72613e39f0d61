package io.loopbench.engine.client;

/**
 * How a client keeps its window filled, and so what its RTT is: a sliding window refills each slot the moment its
 * echo returns ({@link SlidingLoad}); a batch sends the whole window and waits for all of it ({@link BatchLoad});
 * open load sends at its rate, whatever the replies ({@link PacedLoad}). Each records its RTTs into its client
 * thread's timeline recorder of the phase (under open load, also its uncorrected and send-lag histograms). Confined
 * to its client's thread.
 */
interface Load {

    /** A phase has begun: takes its thread's recorder (and histograms) and sends what the phase starts with. */
    void begin(PhaseContext phase, Object histogramOwner);

    /** A slot has been freed at {@code now}, by an echo (validated or not) or a loss: refills it as the load does. */
    void freed(int slot, boolean valid, long now);

    /** Whether messages are still to be sent in this phase. */
    boolean sending();

    /** The deadline has passed: the client is about to stop sending. */
    default void stop() {
    }

    /** The phase has ended for the client: what the load still held for sending is dropped. */
    default void finish() {
    }
}
