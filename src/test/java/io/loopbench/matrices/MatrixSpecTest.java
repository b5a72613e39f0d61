package io.loopbench.matrices;

import io.loopbench.runs.StepRunner;
import io.loopbench.engine.spec.Execution;
import io.loopbench.engine.spec.GrpcMethod;
import io.loopbench.engine.spec.IoModel;
import io.loopbench.engine.spec.Offload;
import io.loopbench.engine.spec.Profiling;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.TlsProvider;
import io.loopbench.engine.spec.Violation;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class MatrixSpecTest {

    private static MatrixSpec empty() {
        return new MatrixSpec(null, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
                null, null, null, null, null, null, null, null, null, null, null, null, null);
    }

    private static String label(RunSpec s) {
        return s.ioModel().label() + s.ioThreads() + " " + s.protocol().label() + " " + s.payloadBytes() + " "
                + s.clients() + "x" + s.window();
    }

    @Test
    void defaultsReproduceArknetsBaseline() {
        MatrixSpec spec = empty().effective();
        List<RunSpec> cases = spec.cases();

        // 5 IO profiles × arknet's seven protocols × 3 payloads × 2 profiles
        assertThat(cases).hasSize(5 * Protocol.ARKNET.size() * 3 * 2);
        assertThat(cases.stream().map(RunSpec::protocol).distinct()).containsExactlyElementsOf(Protocol.ARKNET);
        assertThat(cases.stream().map(s -> s.ioModel().label() + " " + s.ioThreads()).distinct())
                .containsExactly("shared 1", "shared 2", "shared 4", "sharded 2", "sharded 4");
        assertThat(cases.stream().map(RunSpec::payloadBytes).distinct()).containsExactly(64, 1024, 16384);
        assertThat(cases).filteredOn(s -> s.protocol() == Protocol.UDP).allMatch(s -> s.window() == 1)
                .extracting(RunSpec::clients).containsOnly(1, 16);
        assertThat(cases).filteredOn(s -> s.protocol() == Protocol.TCP).extracting(s -> s.clients() + "x" + s.window())
                .containsOnly("1x1", "16x16");
        assertThat(cases).allMatch(s -> s.seconds() == 2.0 && s.warmupSeconds() == 1.0 && s.repetitions() == 5
                && s.work() == 0);
        assertThat(spec.keepGoing()).isFalse();
        assertThat(cases).allMatch(s -> s.profiling() == Profiling.OFF);
    }

    @Test
    void profilingReachesEveryCase() {
        MatrixSpec cpu = new MatrixSpec(null, null, null, null, null, null, null, null, null, null, null, null, null,
                null, null, null, null, null, null, null, null, null, Profiling.CPU, null, null, null, null, null).effective();
        assertThat(cpu.cases()).isNotEmpty().allMatch(s -> s.profiling() == Profiling.CPU);
    }

    @Test
    void casesRunInArknetsOrderIoProfileThenProtocolThenPayloadThenProfile() {
        List<String> order = empty().effective().cases().stream().map(MatrixSpecTest::label).toList();

        assertThat(order.subList(0, 7)).containsExactly(
                "shared1 tcp 64 1x1", "shared1 tcp 64 16x16", "shared1 tcp 1024 1x1", "shared1 tcp 1024 16x16",
                "shared1 tcp 16384 1x1", "shared1 tcp 16384 16x16", "shared1 udp 64 1x1");
        Protocol last = Protocol.ARKNET.getLast();
        assertThat(order.get(6 * Protocol.ARKNET.size())).isEqualTo("shared2 tcp 64 1x1");
        assertThat(order.getLast()).isEqualTo("sharded4 " + last.label() + " 16384 16x16");
    }

    /**
     * Each protocol's own dimension multiplies its cases only: UDP's datagramsPerRead, tcps' TLS providers; the
     * executions of one variant stay adjacent, so that a matched comparison pairs them.
     */
    @Test
    void protocolDimensionsMultiplyTheirOwnProtocolsCasesOnly() {
        MatrixSpec spec = new MatrixSpec(List.of(Protocol.TCP, Protocol.UDP, Protocol.TCPS), List.of(1024),
                List.of(new MatrixSpec.Profile(16, 16)), List.of(IoModel.SHARED), List.of(1), null, null, null,
                List.of(Execution.NETTY, Execution.REACTIVE), null, null, null, null, null, null, null, null, null,
                List.of(1, 16), List.of(TlsProvider.JDK, TlsProvider.OPENSSL), null, null, null, null, null, null, null, null).effective();

        List<String> cases = spec.cases().stream().map(c -> c.protocol().label() + " " + c.datagramsPerRead() + " "
                + c.tlsProvider().label() + " " + c.execution().label()).toList();

        assertThat(cases).containsExactly(
                "tcp 1 auto netty", "tcp 1 auto reactive",
                "udp 1 auto netty", "udp 1 auto reactive", "udp 16 auto netty", "udp 16 auto reactive",
                "tcps 1 jdk netty", "tcps 1 jdk reactive", "tcps 1 openssl netty", "tcps 1 openssl reactive");
        assertThat(spec.listViolations()).isEmpty();
        // WebSocket runs on netty and reactive: its virtual-threads cases are dropped, and a matrix of nothing else
        // is refused
        MatrixSpec ws = new MatrixSpec(List.of(Protocol.TCP, Protocol.WSS), List.of(64),
                List.of(new MatrixSpec.Profile(1, 1)), List.of(IoModel.SHARED), List.of(1), null, null, null, List.of(Execution.NETTY, Execution.REACTIVE),
                null, null, null, null, null, null, null, null, null, null,
                List.of(TlsProvider.JDK, TlsProvider.OPENSSL), null, null, null, null, null, null, null, null).effective();
        assertThat(ws.cases()).extracting(c -> c.protocol().label() + " " + c.tlsProvider().label() + " "
                + c.execution().label()).containsExactly("tcp auto netty", "tcp auto reactive", "wss jdk netty",
                "wss jdk reactive", "wss openssl netty", "wss openssl reactive");
        assertThat(new MatrixSpec(List.of(Protocol.WEBSOCKET), null, null, null, null, null, null, null,
                List.of(Execution.VIRTUAL_THREADS), null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null)
                .effective().listViolations()).extracting(Violation::field).containsExactly("executions×protocols");
        // HTTP runs on netty and reactive, but reactive only with window 1: its pipelined profiles' reactive cases are
        // dropped, and a matrix of nothing else is refused, saying so
        MatrixSpec http = new MatrixSpec(List.of(Protocol.HTTP, Protocol.HTTPS), List.of(64),
                List.of(new MatrixSpec.Profile(1, 1), new MatrixSpec.Profile(16, 16)), List.of(IoModel.SHARED),
                List.of(1), null, null, null, List.of(Execution.NETTY, Execution.REACTIVE, Execution.VIRTUAL_THREADS),
                null, null, null, null, null, null, null, null, null, null, List.of(TlsProvider.JDK), null, null, null, null, null, null, null, null).effective();
        assertThat(http.cases()).extracting(c -> c.protocol().label() + " " + c.window() + " "
                + c.execution().label()).containsExactly("http 1 netty", "http 1 reactive", "http 16 netty",
                "https 1 netty", "https 1 reactive", "https 16 netty");
        assertThat(http.cases()).allSatisfy(c -> assertThat(c.violations()).isEmpty());
        assertThat(new MatrixSpec(List.of(Protocol.HTTP), null, List.of(new MatrixSpec.Profile(16, 16)), null, null,
                null, null, null, List.of(Execution.REACTIVE), null, null, null, null, null, null, null, null, null,
                null, null, null, null, null, null, null, null, null, null).effective().listViolations()).singleElement().satisfies(v -> {
                    assertThat(v.field()).isEqualTo("executions×protocols");
                    assertThat(v.message()).contains("http: netty, reactive with window 1");
                });
        assertThat(new MatrixSpec(null, null, null, null, null, null, null, null, null, null, null, null, null, null,
                null, null, null, null, List.of(1, 1), List.of(), null, null, null, null, null, null, null, null).effective().listViolations())
                .extracting(Violation::field).containsExactly("datagramsPerRead", "tlsProviders");
    }

    @Test
    void grpcsMethodsAreItsOwnDimensionAndGrpcDefaultGoesWithGrpcOnly() {
        MatrixSpec spec = new MatrixSpec(List.of(Protocol.TCP, Protocol.GRPC, Protocol.GRPCS), List.of(1024),
                List.of(new MatrixSpec.Profile(16, 16)), List.of(IoModel.SHARED), List.of(1), List.of(1000), null,
                null, null, null, null, null, null, null, null, null, null, null, null,
                List.of(TlsProvider.JDK, TlsProvider.OPENSSL), null, null, null, null, null,
                List.of(Offload.LOOP, Offload.GRPC_DEFAULT), null, List.of(GrpcMethod.UNARY, GrpcMethod.STREAM))
                .effective();

        List<String> cases = spec.cases().stream().map(c -> c.protocol().label() + " " + c.tlsProvider().label() + " "
                + c.grpcMethod().label() + " " + c.offload().label()).toList();

        assertThat(cases).containsExactly("tcp auto unary loop",
                "grpc auto unary loop", "grpc auto unary grpc-default",
                "grpc auto stream loop", "grpc auto stream grpc-default",
                "grpcs jdk unary loop", "grpcs jdk unary grpc-default",
                "grpcs jdk stream loop", "grpcs jdk stream grpc-default",
                "grpcs openssl unary loop", "grpcs openssl unary grpc-default",
                "grpcs openssl stream loop", "grpcs openssl stream grpc-default");
        assertThat(spec.listViolations()).isEmpty();
        assertThat(spec.cases()).allSatisfy(c -> assertThat(c.violations()).isEmpty());
    }

    @Test
    void shardedWithOneThreadIsDroppedOnlyWhenSharedIsThere() {
        MatrixSpec onlySharded = new MatrixSpec(List.of(Protocol.TCP), List.of(64), null, List.of(IoModel.SHARDED),
                List.of(1, 2), null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null).effective();
        assertThat(onlySharded.cases()).extracting(RunSpec::ioThreads).containsOnly(1, 2);
    }

    @Test
    void everyRepetitionRunsEveryCaseOnceStartingFromAnotherCase() {
        List<StepRunner.Step> steps = CaseOrder.steps(empty().effective().cases().subList(0, 10), 3);

        assertThat(steps).hasSize(30);
        for (int r = 1; r <= 3; r++) {
            int rep = r;
            Set<Integer> cases = new HashSet<>();
            steps.stream().filter(s -> s.repetition() == rep).forEach(s -> cases.add(s.caseIndex()));
            assertThat(cases).hasSize(10);
        }
        assertThat(steps.stream().filter(s -> s.repetition() < 3).mapToInt(s -> s.repetition()).max()).hasValue(2);
        assertThat(List.of(steps.get(0).caseIndex(), steps.get(10).caseIndex(), steps.get(20).caseIndex())).containsExactly(0, 3, 6);
        // repetitions outermost: all of repetition 1 before any of repetition 2
        assertThat(steps.subList(0, 10)).allMatch(s -> s.repetition() == 1);
    }

    private static MatrixSpec executions(List<Execution> executions, List<IoModel> ioModels) {
        return new MatrixSpec(List.of(Protocol.TCP), List.of(1024), List.of(new MatrixSpec.Profile(1, 1)), ioModels,
                List.of(2), null, null, null, executions, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null).effective();
    }

    @Test
    void executionIsInnermostAndVirtualThreadsAreLeftOutOfShardedProfiles() {
        List<RunSpec> cases = executions(List.of(Execution.NETTY, Execution.REACTIVE, Execution.VIRTUAL_THREADS),
                List.of(IoModel.SHARED, IoModel.SHARDED)).cases();

        assertThat(cases).extracting(s -> s.ioModel().label() + " " + s.execution().label()).containsExactly(
                "shared netty", "shared reactive", "shared virtual-threads", "sharded netty", "sharded reactive");
        assertThat(empty().effective().executions()).containsExactly(Execution.NETTY);
        assertThat(empty().effective().cases()).allMatch(s -> s.execution() == Execution.NETTY);
    }

    @Test
    void anExecutionListIsValidatedAndMayNotDropEveryCase() {
        assertThat(executions(List.of(Execution.REACTIVE, Execution.REACTIVE), List.of(IoModel.SHARED))
                .listViolations()).extracting(Violation::field, Violation::allowed).containsExactly(
                org.assertj.core.groups.Tuple.tuple("executions", "each value once (reactive repeats)"));
        assertThat(executions(List.of(), List.of(IoModel.SHARED)).listViolations())
                .extracting(Violation::field).containsExactly("executions");
        assertThat(executions(List.of(Execution.VIRTUAL_THREADS), List.of(IoModel.SHARDED)).listViolations())
                .singleElement().satisfies(v -> {
                    assertThat(v.field()).isEqualTo("executions×ioModels");
                    assertThat(v.value()).isEqualTo("virtual-threads × sharded");
                });
        assertThat(executions(List.of(Execution.VIRTUAL_THREADS), List.of(IoModel.SHARED, IoModel.SHARDED))
                .listViolations()).isEmpty();
    }

    @Test
    void theExecutionsOfACaseRunBackToBackInAnOrderAlternatedBetweenRepetitions() {
        // cases 0-2: shared 2 netty, reactive, virtual-threads; cases 3-4: sharded 2 netty, reactive
        List<RunSpec> cases = executions(List.of(Execution.NETTY, Execution.REACTIVE, Execution.VIRTUAL_THREADS),
                List.of(IoModel.SHARED, IoModel.SHARDED)).cases();

        List<StepRunner.Step> steps = CaseOrder.steps(cases, 3);

        assertThat(steps).extracting(s -> s.repetition() + ":" + s.caseIndex()).containsExactly(
                "1:0", "1:1", "1:2", "1:3", "1:4",
                "2:2", "2:1", "2:0", "2:4", "2:3",
                // the third repetition starts at the other block of cases, forward again
                "3:3", "3:4", "3:0", "3:1", "3:2");
        // over many repetitions, each execution runs first as often as the other
        List<StepRunner.Step> many = CaseOrder.steps(cases.subList(3, 5), 6);
        assertThat(java.util.stream.IntStream.range(0, 6).map(r -> many.get(2 * r).caseIndex()))
                .containsExactly(0, 1, 0, 1, 0, 1);
    }

    @Test
    void aRateSweepRunsEveryCaseAtEveryRateWithOpenLoad() {
        MatrixSpec sweep = new MatrixSpec(List.of(Protocol.TCP), List.of(64), null, List.of(IoModel.SHARED),
                List.of(1), null, null, null, null, null, null, null, null, null, List.of(1000.0, 2000.0), 500.0, null, null, null, null, null, null, null, null, null, null, null, null)
                .effective();

        List<RunSpec> cases = sweep.cases();

        assertThat(cases).hasSize(4); // 2 profiles × 2 rates
        assertThat(cases).allMatch(s -> s.load() == io.loopbench.engine.spec.LoadModel.OPEN)
                .extracting(RunSpec::rate).containsExactly(1000.0, 2000.0, 1000.0, 2000.0);
        assertThat(sweep.p99BoundUs()).isEqualTo(500.0);
        assertThat(empty().effective().cases()).allMatch(s -> s.rate() == null);
        assertThat(empty().effective().p99BoundUs()).isEqualTo(1000.0);
    }

    @Test
    void emptyOrRepeatedListsAreViolations() {
        MatrixSpec bad = new MatrixSpec(List.of(), List.of(64, 64), null, null, null, null, null, null, null, null,
                null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null).effective();

        assertThat(bad.listViolations()).extracting(Violation::field, Violation::allowed).containsExactly(
                org.assertj.core.groups.Tuple.tuple("protocols", "at least one value"),
                org.assertj.core.groups.Tuple.tuple("payloads", "each value once (64 repeats)"));
    }

    @Test
    void blockingAndOffloadsAreDimensionsWithPoolSizesForTheExecutorOnly() {
        MatrixSpec spec = new MatrixSpec(List.of(Protocol.TCP), List.of(64), List.of(new MatrixSpec.Profile(16, 1)),
                List.of(IoModel.SHARED), List.of(1), null, null, null,
                List.of(Execution.NETTY, Execution.VIRTUAL_THREADS), null, null, null, null, null, null, null, null,
                null, null, null, null, null, null, null, List.of(0, 1000),
                List.of(Offload.LOOP, Offload.EXECUTOR, Offload.VIRTUAL_THREADS), List.of(4, 64), null).effective();

        assertThat(spec.cases()).extracting(c -> c.blockingMicros() + " " + c.execution().label() + " "
                + c.offload().label() + (c.offload() == Offload.EXECUTOR ? " " + c.offloadThreads() : ""))
                .containsExactly(
                        "0 netty loop", "0 netty executor 4", "0 netty executor 64", "0 netty virtual-threads",
                        "0 virtual-threads loop",
                        "1000 netty loop", "1000 netty executor 4", "1000 netty executor 64",
                        "1000 netty virtual-threads", "1000 virtual-threads loop");
        assertThat(spec.listViolations()).isEmpty();
        assertThat(spec.cases()).allSatisfy(c -> assertThat(c.violations()).isEmpty());
    }
}
