package io.loopbench.engine.process;

import io.loopbench.engine.spec.RunSpec;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordingStream;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Watches the JIT compiler and the garbage collector for the whole JVM: one flight-recorder stream (started once, on
 * first use, and kept for the JVM's life) delivers every {@code jdk.Compilation} (threshold 0, so none is left out),
 * {@code jdk.Deoptimization} and {@code jdk.GarbageCollection} event; {@link #activity} counts the JIT's that took
 * effect within a phase (a compilation when its code was installed) and judges them by {@link JitActivity}'s rule, and {@link #eventsIn} gives every kind, for the
 * timeline's marks. The stream hands
 * events over about once a second, so {@link #awaitEvents} commits a mark event of its own and waits until the
 * flush that carried it has been handed over (every event committed before the mark is then in).  Thread-safe.
 *
 * <p>Its cost: the flight recorder adds some 25 MiB to the process's resident memory (its classes, buffers and
 * compiled code; measured on JDK 25 with a 256 MiB heap) and a few hundred milliseconds of start-up, which
 * {@link #startInBackground} takes off the first echo's path; a forked worker's RSS figures include it.
 */
public final class JvmEvents {

    /** The note of a phase whose last events the stream did not hand over in time (see {@link #awaitEvents}). */
    public static final String UNKNOWN_NOTE = "JIT activity unknown in part: the flight recorder did not hand "
            + "over the phase's last events within 3 s";

    /** Longest wait for the stream to hand over a phase's last events. */
    private static final long FLUSH_WAIT_NANOS = TimeUnit.SECONDS.toNanos(3);
    /** Events older than this are forgotten; no phase lasts longer. */
    private static final Duration KEPT = Duration.ofSeconds((long) (RunSpec.MAX_SECONDS * 2 + 60));

    /**
     * One compilation, deoptimization or garbage collection; {@code durationNanos}: a compilation's time, a
     * collection's pauses summed; {@code measuredPath}: of a method an echo runs through
     * ({@link JitActivity#onMeasuredPath}); {@code optimized}: a C2 (tier 4) or OSR compilation.
     */
    public record Event(Instant start, Kind kind, long durationNanos, String description, boolean measuredPath,
                        boolean optimized) {
        boolean deoptimization() {
            return kind == Kind.DEOPTIMIZATION;
        }

        /**
         * When it took effect: a compilation when its code was installed, at its end; a deoptimization (an instant)
         * and a collection at their start.
         */
        Instant effective() {
            return kind == Kind.COMPILATION ? start.plusNanos(durationNanos) : start;
        }
    }

    /** What an {@link Event} was. */
    public enum Kind {
        COMPILATION, DEOPTIMIZATION, GC
    }

    /** Committed by {@link #awaitEvents}: once it has been handed over, so has everything committed before it. */
    @Name("io.loopbench.JitMark")
    @Label("loopbench JIT mark")
    @StackTrace(false)
    static final class Mark extends jdk.jfr.Event {
        long id;
    }

    private static volatile JvmEvents instance;

    private final ConcurrentLinkedQueue<Event> events = new ConcurrentLinkedQueue<>();
    private final AtomicLong marks = new AtomicLong();
    /** Written only by the stream's thread. */
    private volatile long receivedMark;
    private volatile long flushedMark;
    /** From when every event is seen (no earlier than the recording's start); null while unknown. */
    private volatile Instant recordingSince;

    private JvmEvents() {
        RecordingStream stream = new RecordingStream();
        stream.enable("jdk.Compilation").withThreshold(Duration.ZERO);
        stream.enable("jdk.Deoptimization").withoutStackTrace();
        stream.enable("jdk.GarbageCollection");
        stream.enable(Mark.class);
        stream.onEvent("jdk.Compilation", e -> add(e, false));
        stream.onEvent("jdk.Deoptimization", e -> add(e, true));
        stream.onEvent("jdk.GarbageCollection", this::addCollection);
        stream.onEvent("io.loopbench.JitMark", e -> receivedMark = Math.max(receivedMark, e.getLong("id")));
        stream.onFlush(() -> flushedMark = receivedMark);
        stream.setReuse(false);
        // a daemon thread of our own: startAsync's would keep a JVM whose work is done alive
        Thread.ofPlatform().daemon().name("loopbench-jit-monitor").start(stream::start);
        awaitRecording();
    }

    /**
     * Returns once the stream records: marks committed before its recording began are lost, so one is committed
     * every few ms until the stream has handed one over (about a second, its flush period), at most
     * {@link #FLUSH_WAIT_NANOS}. Until then nothing the JIT does is seen, and a phase begun earlier would pass for
     * quiet; after a timeout {@link #awaitEvents} answers false and every phase says its JIT activity is unknown.
     */
    private void awaitRecording() {
        long deadline = System.nanoTime() + FLUSH_WAIT_NANOS;
        while (System.nanoTime() - deadline < 0) {
            if (receivedMark != 0) {
                recordingSince = Instant.now(); // later than the recording's start: on the safe side
                return;
            }
            Mark mark = new Mark();
            mark.id = marks.incrementAndGet();
            mark.commit();
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** The JVM's monitor, started on first use; once it returns, the flight recorder records (see {@link #awaitRecording}). */
    public static JvmEvents get() {
        JvmEvents m = instance;
        if (m == null) {
            synchronized (JvmEvents.class) {
                m = instance;
                if (m == null) {
                    m = new JvmEvents();
                    instance = m;
                }
            }
        }
        return m;
    }

    private void add(RecordedEvent e, boolean deoptimization) {
        String type = methodType(e);
        if (type.startsWith("jdk.jfr.")) {
            // the flight recorder's own consumer code, compiled as it hands events to this monitor
            return;
        }
        String method = e.getValue("method") instanceof RecordedMethod m ? type + "::" + m.getName() : type;
        int tier = deoptimization ? 0 : e.getInt("compileLevel");
        boolean osr = !deoptimization && e.getBoolean("isOsr");
        String what = deoptimization ? "deoptimized (" + e.getValue("reason") + "): " + method
                : "compiled tier " + tier + (osr ? " OSR: " : ": ") + method;
        events.add(new Event(e.getStartTime(), deoptimization ? Kind.DEOPTIMIZATION : Kind.COMPILATION,
                e.getDuration().toNanos(), what, JitActivity.onMeasuredPath(type), tier == 4 || osr));
    }

    private void addCollection(RecordedEvent e) {
        Duration paused = e.getDuration("sumOfPauses");
        events.add(new Event(e.getStartTime(), Kind.GC, paused.toNanos(), String.format(java.util.Locale.ROOT,
                "GC %s (%s): %.1f ms paused", e.getString("name"), e.getString("cause"), paused.toNanos() / 1e6),
                false, false));
    }

    /**
     * The measured path's events before the harness's; within each, deoptimizations, then C2/OSR compilations, then
     * the rest.
     */
    private static int rank(Event e) {
        return (e.measuredPath() ? 0 : 3) + (e.deoptimization() ? 0 : e.optimized() ? 1 : 2);
    }

    private static String methodType(RecordedEvent e) {
        return e.getValue("method") instanceof RecordedMethod m && m.getType() != null ? m.getType().getName() : "";
    }

    /**
     * Total time the JIT compilers have spent so far, ms (-1 where the JVM does not tell); from the management bean,
     * so it needs no stream and answers before the monitor has started.
     */
    public static long compileMillis() {
        CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
        return compiler.isCompilationTimeMonitoringSupported() ? compiler.getTotalCompilationTime() : -1;
    }

    /**
     * Starts the monitor on a thread of its own, unless it has started: the flight recorder takes a few hundred ms to
     * start, which then overlaps the warm-up's rounds after its first (a repetition's call) instead of delaying the
     * first echo.
     */
    public static void startInBackground() {
        if (instance == null) {
            Thread.ofPlatform().daemon().name("loopbench-jit-monitor-start").start(JvmEvents::get);
        }
    }

    /**
     * Waits, at most a few seconds, until the stream has handed over every event committed so far; false when it
     * did not in that time (then what the JIT did is not known in full).
     */
    public boolean awaitEvents() {
        Mark mark = new Mark();
        mark.id = marks.incrementAndGet();
        mark.commit();
        long deadline = System.nanoTime() + FLUSH_WAIT_NANOS;
        while (flushedMark < mark.id && System.nanoTime() - deadline < 0) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        boolean flushed = flushedMark >= mark.id;
        if (flushed && recordingSince == null) {
            recordingSince = Instant.now(); // it records after all, begun later than awaitRecording waited
        }
        return flushed;
    }

    /** Whether every event since {@code from} is seen: the recording had begun by then. */
    public boolean sees(Instant from) {
        Instant since = recordingSince;
        return since != null && !from.isBefore(since);
    }

    /**
     * What the JIT did between {@code from} and {@code to} (wall-clock instants), as far as handed over, judged against
     * {@code capacityNanos}, the span's {@link JitActivity#capacityNanos} (negative where unknown).
     */
    public JitActivity activity(Instant from, Instant to, long capacityNanos) {
        return activity(events, from, to, capacityNanos);
    }

    /**
     * What the JIT did in the span, of {@code events}: each compilation counted where its code was installed (a
     * compilation begun before the span and installed in it changed the code under the span; one begun in it and
     * installed after did not), each deoptimization where it happened.
     */
    static JitActivity activity(Collection<Event> events, Instant from, Instant to, long capacityNanos) {
        List<Event> inSpan = events.stream().filter(e -> e.kind() != Kind.GC && in(e, from, to)).toList();
        long deoptimizations = inSpan.stream().filter(Event::deoptimization).count();
        double compileMillis = inSpan.stream().filter(e -> !e.deoptimization()).mapToLong(Event::durationNanos)
                .sum() / 1e6;
        List<Event> path = inSpan.stream().filter(Event::measuredPath).toList();
        long pathDeoptimizations = path.stream().filter(Event::deoptimization).count();
        long pathOptimizations = path.stream().filter(Event::optimized).count();
        List<String> examples = inSpan.stream().sorted(Comparator.comparingInt(JvmEvents::rank))
                .limit(JitActivity.EXAMPLES).map(Event::description).toList();
        return JitActivity.of(inSpan.size() - deoptimizations, deoptimizations, compileMillis, examples,
                path.size() - pathDeoptimizations, pathOptimizations, pathDeoptimizations, capacityNanos);
    }

    private static boolean in(Event e, Instant from, Instant to) {
        return !e.effective().isBefore(from) && e.effective().isBefore(to);
    }

    /**
     * Every event (of every kind) that took effect in the span ({@link Event#effective}), described; forgets those
     * older than any phase can be.
     */
    public List<Event> eventsIn(Instant from, Instant to) {
        List<Event> inSpan = new ArrayList<>();
        Instant forget = to.minus(KEPT);
        for (Event e : events) {
            if (e.start().isBefore(forget)) {
                events.remove(e);
            } else if (in(e, from, to)) {
                inSpan.add(e);
            }
        }
        return inSpan;
    }
}
