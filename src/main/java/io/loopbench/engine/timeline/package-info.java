/**
 * A repetition over time: each client thread's {@link io.loopbench.engine.timeline.IntervalRecorder} cuts its RTTs
 * and counts into intervals by their own timestamps, a phase's
 * {@link io.loopbench.engine.timeline.TimelineRecording} gathers them into
 * {@link io.loopbench.engine.timeline.TimelineInterval}s as they close (the live view), and
 * {@link io.loopbench.engine.timeline.Timeline} stores both phases' intervals by column, with the process's GC and
 * JIT events marked in the intervals they began in.
 *
 * <p>Threads: a recorder is written only by its client thread during a phase; the recording belongs to the
 * repetition's thread, and the two exchange closed intervals and spare histograms through concurrent queues only.
 * The records are immutable.
 */
package io.loopbench.engine.timeline;
