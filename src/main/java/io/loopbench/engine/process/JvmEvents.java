package io.loopbench.engine.process;

import io.loopbench.engine.spec.RunSpec;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * Watches the JIT compiler and the garbage collector for the whole JVM: one flight recording (started once, on first
 * use, and kept for the JVM's life) holds every {@code jdk.Compilation} (threshold 0, so none is left out),
 * {@code jdk.Deoptimization} and {@code jdk.GarbageCollection} event; {@link #activity} counts the JIT's that took
 * effect within a phase (a compilation when its code was installed) and judges them by {@link JitActivity}'s rule,
 * and {@link #eventsIn} gives every kind, for the timeline's marks.
 *
 * <p>The events are read on demand ({@link #awaitEvents}): the recording is dumped to a file of its own and read
 * back, some 10 ms, and every event committed before the call is in. A recording stream would hand them over only at
 * its flush, about once a second, which the JVM does not let a program shorten: each phase waited for it (0 to 1 s,
 * bench/LOG.md) and an auto warm-up's JIT check idled the loops for as long. Each dump closes one of the
 * recording's chunks, so a recording whose dump has grown past {@link #ROTATE_BYTES} is replaced by a new one, started
 * before the old one's last dump, the events of each kept on their side of that instant. Thread-safe.
 *
 * <p>Its cost: the flight recorder adds some 25 MiB to the process's resident memory (its classes, buffers and
 * compiled code; measured on JDK 25 with a 256 MiB heap) and a few hundred milliseconds of start-up, which
 * {@link #startInBackground} takes off the first echo's path; a forked worker's RSS figures include it.
 */
public final class JvmEvents {

    /** The note of a phase whose last events could not be read (see {@link #awaitEvents}). */
    public static final String UNKNOWN_NOTE = "JIT activity unknown in part: the flight recorder's events could "
            + "not be read";

    /** Events older than this are forgotten; no phase lasts longer. */
    private static final Duration KEPT = Duration.ofSeconds((long) (RunSpec.MAX_SECONDS * 2 + 60));
    /** A dump larger than this replaces the recording (each dump adds a chunk of some 130 KB). */
    private static final long ROTATE_BYTES = 8L << 20;

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

    private static volatile JvmEvents instance;

    /** Where each dump is written and read back (deleted after each read). */
    private final Path dumpFile;
    private final long rotateBytes;
    private Recording recording;
    /** When {@link #recording} began: every event effective since is in it; earlier ones are in {@link #older}. */
    private Instant recordingFrom;
    /** Events of the recordings this one replaced, each effective before {@link #recordingFrom}. */
    private List<Event> older = List.of();
    /** The events as last read: {@link #older}, then the current recording's. */
    private volatile List<Event> events = List.of();
    /** Whether the last dump was past {@link #rotateBytes}. */
    private boolean rotate;
    /** From when every event is seen: the first recording's start. */
    private final Instant recordingSince;

    /**
     * A monitor whose recording is replaced once a dump is past {@code rotateBytes}: the JVM's ({@link #get}) at
     * {@link #ROTATE_BYTES}; a test's at the size it needs.
     */
    JvmEvents(long rotateBytes) {
        this.rotateBytes = rotateBytes;
        try {
            dumpFile = Files.createTempFile("loopbench-jit-", ".jfr");
            Files.delete(dumpFile); // created by each dump, deleted after each read
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        recording = newRecording();
        recordingFrom = Instant.now();
        recordingSince = recordingFrom;
    }

    private static Recording newRecording() {
        Recording r = new Recording();
        r.setName("loopbench JIT monitor");
        r.enable("jdk.Compilation").withThreshold(Duration.ZERO);
        r.enable("jdk.Deoptimization").withoutStackTrace();
        r.enable("jdk.GarbageCollection");
        r.setToDisk(true); // in memory, the oldest events would be overwritten
        r.setMaxAge(KEPT);
        r.start();
        return r;
    }

    /** Stops recording; tests only (the JVM's own monitor records for the JVM's life). */
    synchronized void close() {
        recording.close();
    }

    /** The JVM's monitor, started on first use; once it returns, the flight recorder records. */
    public static JvmEvents get() {
        JvmEvents m = instance;
        if (m == null) {
            synchronized (JvmEvents.class) {
                m = instance;
                if (m == null) {
                    m = new JvmEvents(ROTATE_BYTES);
                    instance = m;
                }
            }
        }
        return m;
    }

    /** The current recording's events, dumped and read back; those effective before {@code from} dropped. */
    private List<Event> read(Recording r, Instant from) throws IOException {
        r.dump(dumpFile);
        List<Event> read = new ArrayList<>();
        try (RecordingFile file = new RecordingFile(dumpFile)) {
            while (file.hasMoreEvents()) {
                Event e = event(file.readEvent());
                if (e != null && !e.effective().isBefore(from)) {
                    read.add(e);
                }
            }
        } finally {
            rotate = Files.size(dumpFile) > rotateBytes;
            Files.deleteIfExists(dumpFile);
        }
        return read;
    }

    /** The monitor's event for a recorded one; null for one that is not the JIT's or the collector's. */
    private static Event event(RecordedEvent e) {
        String name = e.getEventType().getName();
        if (name.equals("jdk.GarbageCollection")) {
            Duration paused = e.getDuration("sumOfPauses");
            return new Event(e.getStartTime(), Kind.GC, paused.toNanos(), String.format(java.util.Locale.ROOT,
                    "GC %s (%s): %.1f ms paused", e.getString("name"), e.getString("cause"), paused.toNanos() / 1e6),
                    false, false);
        }
        boolean deoptimization = name.equals("jdk.Deoptimization");
        if (!deoptimization && !name.equals("jdk.Compilation")) {
            return null;
        }
        String type = methodType(e);
        if (type.startsWith("jdk.jfr.")) {
            return null; // the flight recorder's own code, compiled as it dumps and reads
        }
        String method = e.getValue("method") instanceof RecordedMethod m ? type + "::" + m.getName() : type;
        int tier = deoptimization ? 0 : e.getInt("compileLevel");
        boolean osr = !deoptimization && e.getBoolean("isOsr");
        String what = deoptimization ? "deoptimized (" + e.getValue("reason") + "): " + method
                : "compiled tier " + tier + (osr ? " OSR: " : ": ") + method;
        return new Event(e.getStartTime(), deoptimization ? Kind.DEOPTIMIZATION : Kind.COMPILATION,
                e.getDuration().toNanos(), what, JitActivity.onMeasuredPath(type), tier == 4 || osr);
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
     * Reads every event committed so far (about 10 ms); false when they could not be read (then what the JIT did
     * since the last read is not known), and the next call tries again.
     */
    public synchronized boolean awaitEvents() {
        try {
            List<Event> current = read(recording, recordingFrom);
            if (rotate) { // a new recording first, so that no event falls between the two
                Recording next = newRecording();
                Instant switched = Instant.now();
                Recording last = recording;
                List<Event> before = new ArrayList<>(older);
                read(last, recordingFrom).stream().filter(e -> e.effective().isBefore(switched)).forEach(before::add);
                last.close();
                Instant forget = switched.minus(KEPT);
                before.removeIf(e -> e.start().isBefore(forget));
                older = List.copyOf(before);
                recording = next;
                recordingFrom = switched;
                current = read(next, switched); // what took effect since the switch, committed before this call
                rotate = false;
            }
            List<Event> all = new ArrayList<>(older);
            all.addAll(current);
            events = List.copyOf(all);
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Whether every event since {@code from} is seen: the recording had begun by then. */
    public boolean sees(Instant from) {
        return !from.isBefore(recordingSince);
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

    /** Every event (of every kind) that took effect in the span ({@link Event#effective}), as last read. */
    public List<Event> eventsIn(Instant from, Instant to) {
        return events.stream().filter(e -> in(e, from, to)).toList();
    }
}
