package io.loopbench.worker;

import io.loopbench.engine.spec.InvalidSpecException;
import io.loopbench.engine.spec.WarmupMode;
import io.loopbench.engine.Measurement;
import io.loopbench.engine.MeasurementResult;
import io.loopbench.engine.ProgressListener;
import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.timeline.TimelineInterval;
import org.HdrHistogram.AbstractHistogram;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;

/**
 * The forked worker: reads one {@link WorkerRequest} from stdin's first line, measures it, writes a
 * {@link WorkerEvent} per line on stdout and a line per phase and per repetition on stderr for people. It loads no
 * command-line parser and no logging framework, and it exits as soon as stdin reaches its end: the service that forked
 * it holds the other end, so a worker never outlives it, even when the service is killed outright. Exit status 0 when
 * the measurement passed, 1 when it did not, 2 for a request it cannot take, 3 when the service went away.
 *
 * <p>Threads: the main thread reads the request and measures, while another prepares Netty and Reactor
 * ({@link MeasuringJvm#prepareInBackground}); events come from the engine's threads as well, so their writer is
 * synchronized; a daemon thread watches stdin.
 */
public final class WorkerMain {

    private WorkerMain() {
    }

    public static void main(String[] args) {
        MeasuringJvm.prepareInBackground();
        PrintStream events = System.out;
        System.setOut(System.err); // a library's print must not break the event stream
        // Halt, not exit: nothing of a measurement whose result nobody will read is worth a shutdown hook that might
        // hang
        System.exit(run(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)), events,
                System.err, () -> Runtime.getRuntime().halt(3)));
    }

    /**
     * Takes the request from {@code in}'s first line, then watches {@code in} to its end, when it runs
     * {@code parentGone} (null: no watch, for a request not from a service); returns the exit status.
     */
    static int run(BufferedReader in, PrintStream events, PrintStream err, Runnable parentGone) {
        WorkerRequest request;
        try {
            String first = in.readLine();
            if (first == null) {
                err.println("loopbench worker: no request on stdin");
                return 2;
            }
            request = WorkerProtocol.request(first);
        } catch (IOException | RuntimeException e) {
            err.println("loopbench worker: unreadable request: " + e.getMessage());
            return 2;
        }
        if (request.version() != WorkerProtocol.VERSION) {
            err.println("loopbench worker: request of protocol version " + request.version() + ", this worker speaks "
                    + WorkerProtocol.VERSION);
            return 2;
        }
        if (parentGone != null) {
            watchParent(in, err, parentGone);
        }
        MeasuringJvm.awaitPrepared();
        Measurement measurement;
        try {
            measurement = Measurement.of(request.spec());
        } catch (InvalidSpecException e) {
            err.println("loopbench worker: invalid spec: " + e.violations());
            return 2;
        }
        Events out = new Events(events, err, request.spec().repetitions(),
                request.spec().warmupMode() == WarmupMode.AUTO);
        MeasurementResult result = measurement.progress(out).run();
        out.emit(new WorkerEvent.Result(result));
        if (!result.ok()) {
            err.println("loopbench worker: " + result.error());
        }
        return result.ok() ? 0 : 1;
    }

    /** Runs {@code parentGone} when stdin reaches its end or fails: the service's end of the pipe closed. */
    static void watchParent(BufferedReader in, PrintStream err, Runnable parentGone) {
        Thread.ofPlatform().daemon(true).name("loopbench-parent-watch").start(() -> {
            try {
                while (in.read() >= 0) {
                    // the service writes nothing more; whatever it might is ignored
                }
            } catch (IOException e) {
                // a broken pipe says the same as its end
            }
            err.println("loopbench worker: the service that started this worker is gone (stdin closed); exiting");
            err.flush();
            parentGone.run();
        });
    }

    /** The engine's progress as events on stdout and as lines for people on stderr. */
    private record Events(PrintStream events, PrintStream err, int repetitions, boolean auto)
            implements ProgressListener {

        void emit(WorkerEvent event) {
            String line = WorkerProtocol.line(event);
            synchronized (events) {
                events.println(line);
                events.flush();
            }
        }

        @Override
        public void phaseStarted(int repetition, String phase, double seconds) {
            emit(new WorkerEvent.Phase(repetition, phase, seconds, ManagementFactory.getRuntimeMXBean().getUptime()));
            err.println(ProgressLines.phase(repetition, repetitions, phase, seconds, auto));
        }

        @Override
        public void intervalRecorded(int repetition, TimelineInterval interval, AbstractHistogram rtt) {
            emit(new WorkerEvent.Interval(repetition, interval));
        }

        @Override
        public void repetitionFinished(RepetitionResult r) {
            err.println(ProgressLines.finished(r, repetitions));
        }
    }
}
