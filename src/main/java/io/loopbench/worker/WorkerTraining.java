package io.loopbench.worker;

import io.loopbench.engine.spec.IoModel;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.WarmupMode;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The workload a JVM runs while it records a class archive — {@code -XX:AOTCacheOutput} (JDK 25+: the classes it
 * loads and links and, unless told not to, the profiles of the methods it runs) or {@code -XX:ArchiveClassesAtExit}
 * (classes only) — so that a later JVM started from it has them from its first millisecond: the engine's own hot
 * path through the worker's own entry ({@link WorkerMain#run}: request, warm-up rounds, measured phase, events, which
 * are discarded), TCP and UDP, netty execution, one and two loops, shared and sharded. Other protocols' and
 * executions' classes are left out: an AOT cache loads all its classes when the JVM starts, so every class it holds
 * costs each worker start time and memory; and profiles of other executions' types at the engine's shared call sites
 * would be polymorphic where netty's are not. Stateless.
 */
public final class WorkerTraining {

    /** Seconds per case, a quarter of them warm-up. */
    public static final double DEFAULT_SECONDS = 2;

    private WorkerTraining() {
    }

    /**
     * {@code WorkerTraining [SECONDS]}: exits 0 when every case ran, 1 when one did not (its path is untrained), and
     * at once (status 3) when stdin reaches its end: the service that started it holds the other end, so that it
     * never outlives the service, as a worker does not.
     */
    public static void main(String[] args) {
        MeasuringJvm.prepare();
        WorkerMain.watchParent(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)),
                System.err, () -> Runtime.getRuntime().halt(3));
        System.exit(run(args.length > 0 ? Double.parseDouble(args[0]) : DEFAULT_SECONDS, System.err));
    }

    /**
     * Runs every case; a case that ran but failed validation counts as run (short training in a cold JVM may well
     * fail the fairness check, yet it ran the path). Returns 0 when every case ran, else 1.
     */
    public static int run(double seconds, PrintStream err) {
        int notRun = 0;
        PrintStream discard = new PrintStream(OutputStream.nullOutputStream());
        for (RunSpec spec : cases(seconds)) {
            err.println("loopbench train: " + spec.protocol().label() + " " + spec.payloadBytes() + " B, "
                    + spec.clients() + " × " + spec.window() + ", " + spec.ioModel().label() + " " + spec.ioThreads());
            String request = WorkerProtocol.line(new WorkerRequest(WorkerProtocol.VERSION, spec));
            notRun += WorkerMain.run(new BufferedReader(new StringReader(request)), discard, err, null) == 2 ? 1 : 0;
        }
        err.flush();
        return notRun == 0 ? 0 : 1;
    }

    /** The main seeds profiles (1024 B/16/16 and 64 B/1/1) on both protocols and both IO models. */
    static List<RunSpec> cases(double seconds) {
        RunSpec.Builder b = RunSpec.builder().warmupMode(WarmupMode.FIXED).warmupSeconds(seconds / 4)
                .seconds(seconds * 3 / 4).repetitions(1);
        return List.of(
                b.protocol(Protocol.TCP).payloadBytes(1024).clients(16).window(16).ioModel(IoModel.SHARED)
                        .ioThreads(2).build(),
                b.protocol(Protocol.TCP).payloadBytes(64).clients(1).window(1).ioModel(IoModel.SHARDED)
                        .ioThreads(2).build(),
                b.protocol(Protocol.UDP).payloadBytes(1024).clients(16).window(1).ioModel(IoModel.SHARED)
                        .ioThreads(1).build());
    }
}
