package io.loopbench.engine.process;

/**
 * Garbage collection during the measured phase, as the JVM's GarbageCollectorMXBeans count it (for G1 this
 * includes concurrent cycles, whose time is not pause time).
 *
 * @param collections      collections during the measured phase
 * @param collectionMillis their accumulated time, milliseconds
 */
public record GcActivity(long collections, long collectionMillis) {
}
