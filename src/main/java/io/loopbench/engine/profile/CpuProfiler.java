package io.loopbench.engine.profile;

import jdk.jfr.EventType;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;
import one.profiler.AsyncProfiler;
import one.profiler.Counter;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Samples the process's CPU time, from a repetition's warm-up, restarted for its measured phase: async-profiler
 * where its native library loads and the kernel lets it open perf events (Java, native and kernel frames, every
 * thread), else the flight recorder's CPU-time samples (Java frames only), and the profile says which and why. One profile at a time per JVM, since both samplers
 * see the whole process: {@link #start} while another runs answers why not. A {@link Session} is used by the thread
 * that started it.
 */
public final class CpuProfiler {

    /**
     * CPU time between two samples of a thread: 100 per second of a busy thread (async-profiler's own default). At
     * 5 ms a busy loop thread lost some 7 % of its throughput (bench/LOG.md, "CPU profiles").
     */
    public static final int DEFAULT_INTERVAL_MICROS = 10_000;

    private static final AtomicBoolean RUNNING = new AtomicBoolean();
    /**
     * Whether async-profiler's library was loaded into this JVM: its signal handler then takes the signals the flight
     * recorder's CPU-time sampler relies on, which would record nothing.
     */
    private static volatile boolean nativeLoaded;

    private CpuProfiler() {
    }

    /** A sampler the profile can come from: started, then stopped; a restart stops, discards and starts again. */
    interface Sampler {
        String name();

        String event();

        void start(int intervalMicros) throws Exception;

        void stop() throws Exception;

        /** Adds what was sampled until {@link #stop} to {@code tree}, and frees it. */
        void collect(CallTree tree) throws Exception;

        /** Frees what was sampled, unread. */
        void discard() throws Exception;
    }

    /**
     * Sampling that has begun, or the reason it could not: {@link #restart} where the profile is to begin (after a
     * warm-up that ran sampled), {@link #stop}, then {@link #profile}; {@link #close} in a finally block releases the
     * profiler whatever happened in between.
     */
    public static final class Session implements AutoCloseable {
        private final Sampler sampler;
        private final String fallback;
        private final String refused;
        private final int intervalMicros;
        private boolean stopped;
        private boolean released;

        private Session(Sampler sampler, String fallback, String refused, int intervalMicros) {
            this.sampler = sampler;
            this.fallback = fallback;
            this.refused = refused;
            this.intervalMicros = intervalMicros;
        }

        /** Why no profile is being taken; null when one is. */
        public String refused() {
            return refused;
        }

        /**
         * Drops what was sampled so far and samples on: the profile begins here. Starting a profiler costs (symbol
         * tables, method ids, code it makes the JIT compile again), so a repetition starts sampling before its warm-up
         * and restarts at its measured phase, where that cost has been paid. Throws {@link IllegalStateException}
         * naming why there is no profile (also when {@link #refused} was set).
         */
        public void restart() {
            if (sampler == null) {
                throw new IllegalStateException(refused);
            }
            try {
                sampler.stop();
                sampler.discard();
                sampler.start(intervalMicros);
            } catch (Exception e) {
                release();
                throw new IllegalStateException(sampler.name() + " failed to restart: " + e, e);
            }
        }

        /**
         * Stops sampling, at once (the profile is built by {@link #profile}, after the phase's own figures are read:
         * building it allocates). Throws {@link IllegalStateException} naming why there is no profile (also when
         * {@link #refused} was set).
         */
        public void stop() {
            if (sampler == null) {
                throw new IllegalStateException(refused);
            }
            stopped = true;
            try {
                sampler.stop();
            } catch (Exception e) {
                release();
                throw new IllegalStateException(sampler.name() + " failed to stop: " + e, e);
            }
        }

        /** The profile of what was sampled until {@link #stop}; after it, another profile may be taken. */
        public CpuProfile profile() {
            try {
                CallTree tree = new CallTree();
                sampler.collect(tree);
                return tree.toProfile(sampler.name(), sampler.event(), fallback, intervalMicros);
            } catch (Exception e) {
                throw new IllegalStateException(sampler.name() + " could not hand over its samples: " + e, e);
            } finally {
                release();
            }
        }

        /** Stops sampling if still on and drops what was sampled unless {@link #profile} took it; idempotent. */
        @Override
        public void close() {
            if (sampler == null || released) {
                return;
            }
            try {
                if (!stopped) {
                    stopped = true;
                    sampler.stop();
                }
                sampler.discard();
            } catch (Exception e) {
                // nothing to hand over: the profiler is released below either way
            } finally {
                release();
            }
        }

        private void release() {
            if (!released) {
                released = true;
                RUNNING.set(false);
            }
        }
    }

    /** Starts sampling with async-profiler, else the flight recorder. */
    public static Session start(int intervalMicros) {
        return start(intervalMicros, AsyncSampler::new);
    }

    static Session start(int intervalMicros, Supplier<Sampler> nativeSampler) {
        if (!RUNNING.compareAndSet(false, true)) {
            return new Session(null, null, "another profile of this JVM was being taken", intervalMicros);
        }
        String fallback;
        try {
            Sampler s = nativeSampler.get();
            s.start(intervalMicros);
            return new Session(s, null, null, intervalMicros);
        } catch (Exception | LinkageError e) {
            fallback = "async-profiler could not start: " + e.getMessage();
        }
        try {
            Sampler s = new FlightRecorderSampler();
            s.start(intervalMicros);
            return new Session(s, fallback, null, intervalMicros);
        } catch (Exception | LinkageError e) {
            RUNNING.set(false);
            return new Session(null, null, fallback + "; the flight recorder could not either: " + e.getMessage(),
                    intervalMicros);
        }
    }

    /** async-profiler through its Maven artifact, which carries the native library and extracts it once per JVM. */
    private static final class AsyncSampler implements Sampler {
        private final AsyncProfiler profiler = loaded();

        private static AsyncProfiler loaded() {
            AsyncProfiler p = AsyncProfiler.getInstance();
            nativeLoaded = true;
            return p;
        }

        @Override
        public String name() {
            return "async-profiler " + profiler.getVersion();
        }

        @Override
        public String event() {
            return "cpu";
        }

        @Override
        public void start(int intervalMicros) throws IOException {
            profiler.execute("start,event=cpu,interval=" + intervalMicros + "us,threads");
        }

        @Override
        public void stop() {
            profiler.stop();
        }

        @Override
        public void collect(CallTree tree) {
            tree.addCollapsed(profiler.dumpCollapsed(Counter.SAMPLES));
        }

        @Override
        public void discard() {
            // the next start clears async-profiler's samples
        }
    }

    /**
     * The flight recorder's {@code jdk.CPUTimeSample} (JDK 25 on Linux: every thread's CPU time, Java frames), else
     * — where the JDK lacks it or async-profiler's handler holds its signal — {@code jdk.ExecutionSample} (threads
     * running Java code only).
     */
    private static final class FlightRecorderSampler implements Sampler {
        private static final String CPU_TIME = "jdk.CPUTimeSample";
        private static final String EXECUTION = "jdk.ExecutionSample";

        private final String event = FlightRecorder.getFlightRecorder().getEventTypes().stream()
                .map(EventType::getName).anyMatch(CPU_TIME::equals) && !nativeLoaded ? CPU_TIME : EXECUTION;
        private Recording recording;

        @Override
        public String name() {
            return "flight recorder";
        }

        @Override
        public String event() {
            return event;
        }

        @Override
        public void start(int intervalMicros) {
            recording = new Recording();
            if (event.equals(CPU_TIME)) {
                recording.enable(CPU_TIME).with("throttle", intervalMicros + "us");
            } else {
                recording.enable(EXECUTION).withPeriod(Duration.ofNanos(intervalMicros * 1000L));
            }
            recording.setToDisk(true);
            recording.start();
        }

        @Override
        public void stop() {
            recording.stop();
        }

        @Override
        public void collect(CallTree tree) throws IOException {
            Path file = Files.createTempFile("loopbench-profile", ".jfr");
            try {
                recording.dump(file);
                for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
                    if (e.getEventType().getName().equals(event)) {
                        tree.add(stack(e), 1);
                    }
                }
            } finally {
                recording.close();
                Files.deleteIfExists(file);
            }
        }

        @Override
        public void discard() {
            recording.close();
        }

        /** The event's stack, thread first, frames named as async-profiler names them. */
        private static List<String> stack(RecordedEvent e) {
            RecordedThread t = e.getThread(e.hasField("sampledThread") ? "sampledThread" : "eventThread");
            List<String> stack = new ArrayList<>();
            stack.add("[" + (t == null ? "unknown thread" : t.getJavaName() != null ? t.getJavaName()
                    : t.getOSName()) + "]");
            if (e.getStackTrace() == null) {
                stack.add("[no stack]");
                return stack;
            }
            List<RecordedFrame> frames = e.getStackTrace().getFrames();
            for (int i = frames.size() - 1; i >= 0; i--) {
                RecordedFrame f = frames.get(i);
                stack.add(f.getMethod().getType().getName().replace('.', '/') + "." + f.getMethod().getName());
            }
            return stack;
        }
    }
}
