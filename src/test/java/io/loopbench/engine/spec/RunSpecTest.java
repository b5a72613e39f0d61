package io.loopbench.engine.spec;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RunSpecTest {

    @Test
    void omittedFieldsTakeTheIssuesDefaults() {
        RunSpec s = new RunSpec(null, null, null, null, null, null, null, null, null, null, null, null, null, null,
                null, null, null, null, null, null, null, null, null, null, null, null, null, null, null);
        assertThat(s).isEqualTo(RunSpec.defaults());
        assertThat(s.datagramsPerRead()).isEqualTo(1);
        assertThat(s.warmupMode()).isEqualTo(WarmupMode.AUTO);
        assertThat(s.warmupMaxSeconds()).isEqualTo(RunSpec.DEFAULT_WARMUP_MAX_SECONDS);
        assertThat(s.execution()).isEqualTo(Execution.NETTY);
        assertThat(s.protocol()).isEqualTo(Protocol.TCP);
        assertThat(s.payloadBytes()).isEqualTo(1024);
        assertThat(s.clients()).isEqualTo(16);
        assertThat(s.window()).isEqualTo(16);
        assertThat(s.windowMode()).isEqualTo(WindowMode.SLIDING);
        assertThat(s.ioModel()).isEqualTo(IoModel.SHARED);
        assertThat(s.ioThreads()).isEqualTo(1);
        assertThat(s.transport()).isEqualTo(Transport.AUTO);
        assertThat(s.work()).isZero();
        assertThat(s.warmupSeconds()).isEqualTo(1.0);
        assertThat(s.seconds()).isEqualTo(2.0);
        assertThat(s.repetitions()).isEqualTo(3);
        assertThat(s.addressFamily()).isEqualTo(AddressFamily.IPV4);
        assertThat(s.lossTimeoutMillis()).isEqualTo(1000);
        assertThat(s.violations()).isEmpty();
    }

    @Test
    void everyViolationIsReportedAtOnceWithFieldValueAndRange() {
        RunSpec s = RunSpec.builder().payloadBytes(15).clients(1025).window(0).ioThreads(65).work(-1)
                .warmupSeconds(-0.5).seconds(0.0).repetitions(101).lossTimeoutMillis(0).build();
        assertThat(s.violations()).extracting(Violation::field).containsExactly(
                "payloadBytes", "clients", "window", "ioThreads", "work", "warmupSeconds", "seconds", "repetitions",
                "lossTimeoutMillis");
        assertThat(s.violations().getFirst()).isEqualTo(new Violation("payloadBytes", "15", "16 … 65,507"));
        assertThat(s.violations()).filteredOn(v -> v.field().equals("seconds"))
                .extracting(Violation::allowed).containsExactly("more than 0 and at most 3,600");
        assertThatThrownBy(s::validated).isInstanceOf(InvalidSpecException.class)
                .hasMessageContaining("payloadBytes = 15").hasMessageContaining("repetitions = 101");
    }

    @Test
    void boundariesAreInclusive() {
        RunSpec low = RunSpec.builder().payloadBytes(16).clients(1).window(1).ioThreads(1).work(0)
                .warmupSeconds(0.0).seconds(0.001).repetitions(1).lossTimeoutMillis(1).build();
        RunSpec high = RunSpec.builder().payloadBytes(65_507).clients(2).window(2).ioThreads(64).work(10_000_000)
                .warmupSeconds(3600.0).seconds(3600.0).repetitions(100).lossTimeoutMillis(60_000).build();
        assertThat(low.violations()).isEmpty();
        assertThat(high.violations()).isEmpty();
        assertThat(RunSpec.builder().seconds(Double.NaN).build().violations())
                .extracting(Violation::field).containsExactly("seconds");
    }

    @Test
    void outstandingPayloadIsCappedAt256MiBAsArknet() {
        RunSpec atLimit = RunSpec.builder().clients(1024).window(256).payloadBytes(1024).build();
        RunSpec over = RunSpec.builder().clients(1024).window(1024).payloadBytes(1024).build();
        assertThat(atLimit.violations()).isEmpty();
        assertThat(over.violations()).containsExactly(new Violation("clients×window×payloadBytes",
                String.valueOf(1024L * 1024 * 1024), "at most 268435456 (256 MiB)"));
    }

    @Test
    void batchedDatagramReadsNeedUdpOnEpollOrAutoAndANettyChannel() {
        RunSpec.Builder udp = RunSpec.builder().protocol(Protocol.UDP).datagramsPerRead(16);
        assertThat(udp.build().violations()).isEmpty();
        assertThat(udp.transport(Transport.EPOLL).build().violations()).isEmpty();
        assertThat(udp.transport(Transport.NIO).build().violations()).singleElement()
                .satisfies(v -> assertThat(v.field()).isEqualTo("datagramsPerRead"))
                .satisfies(v -> assertThat(v.allowed()).contains("epoll"));
        assertThat(RunSpec.builder().datagramsPerRead(2).build().violations()).singleElement()
                .satisfies(v -> assertThat(v.allowed()).contains("UDP"));
        assertThat(RunSpec.builder().protocol(Protocol.UDP).execution(Execution.VIRTUAL_THREADS).datagramsPerRead(2)
                .window(1).build().violations()).extracting(Violation::field).containsExactly("datagramsPerRead");
        assertThat(RunSpec.builder().protocol(Protocol.UDP).datagramsPerRead(65).build().violations())
                .containsExactly(new Violation("datagramsPerRead", "65", "1 … 64"));
    }

    @Test
    void virtualThreadsRefuseWhatABlockingThreadPerConnectionEndCannotDo() {
        RunSpec s = RunSpec.builder().execution(Execution.VIRTUAL_THREADS).ioModel(IoModel.SHARDED)
                .transport(Transport.EPOLL).window(32).payloadBytes(16384).build();

        assertThat(s.violations()).extracting(Violation::field)
                .containsExactly("ioModel", "transport", "window×payloadBytes");
        assertThat(s.violations().getFirst().allowed()).contains("shared");
        assertThat(RunSpec.builder().execution(Execution.VIRTUAL_THREADS).load(LoadModel.OPEN).rate(1000.0).build()
                .violations()).extracting(Violation::field).containsExactly("load");
        // arknet's largest case (16 × 16 KiB) fits; UDP has no such limit; jdk goes only with virtual threads
        assertThat(RunSpec.builder().execution(Execution.VIRTUAL_THREADS).window(16).payloadBytes(16384).build()
                .violations()).isEmpty();
        assertThat(RunSpec.builder().execution(Execution.VIRTUAL_THREADS).protocol(Protocol.UDP).window(64)
                .payloadBytes(16384).build().violations()).isEmpty();
        assertThat(RunSpec.builder().transport(Transport.JDK).build().violations()).extracting(Violation::field)
                .containsExactly("transport");
    }

    @Test
    void labelsParseBackAndRejectUnknownValuesNamingTheAllowedOnes() {
        assertThat(Labeled.parse(Transport.class, "io_uring")).isEqualTo(Transport.IO_URING);
        assertThat(IoModel.SHARDED.label()).isEqualTo("sharded");
        assertThatThrownBy(() -> Labeled.parse(Protocol.class, "sctp"))
                .hasMessage("'sctp' is not one of tcp, udp, tcps, websocket, wss, http, https, h2c, h2, grpc, grpcs");
    }

    @Test
    void theTimelineIntervalIsTenMillisecondsToTenSecondsAndGivesAPhaseAtMostTenThousandIntervals() {
        assertThat(RunSpec.defaults().timelineIntervalMillis()).isEqualTo(100);
        // a phase longer than 1000 s takes, by default, the least interval that keeps it to 10,000 intervals
        assertThat(RunSpec.builder().seconds(3600.0).build().timelineIntervalMillis()).isEqualTo(360);
        assertThat(RunSpec.builder().seconds(3600.0).build().violations()).isEmpty();

        assertThat(RunSpec.builder().timelineIntervalMillis(9).build().violations())
                .containsExactly(new Violation("timelineIntervalMillis", "9", "10 … 10,000"));
        assertThat(RunSpec.builder().timelineIntervalMillis(10_001).build().violations())
                .containsExactly(new Violation("timelineIntervalMillis", "10001", "10 … 10,000"));
        assertThat(RunSpec.builder().seconds(3600.0).timelineIntervalMillis(100).build().violations())
                .containsExactly(new Violation("timelineIntervalMillis", "100",
                        "360 … 10,000 (a phase has at most 10,000 intervals)"));
        assertThat(RunSpec.builder().timelineIntervalMillis(10).build().violations()).isEmpty();
    }

    @Test
    void blockingWorkAndOffloadKeepTheirRangesAndAreRefusedWhereTheyCannotRun() {
        assertThat(RunSpec.builder().blockingMicros(1000).offload(Offload.EXECUTOR).offloadThreads(64).build()
                .violations()).isEmpty();
        assertThat(RunSpec.builder().blockingMicros(1_000_001).offloadThreads(0).build().violations())
                .containsExactly(new Violation("blockingMicros", "1000001", "0 … 1,000,000"),
                        new Violation("offloadThreads", "0", "1 … 1,024"));
        assertThat(RunSpec.builder().execution(Execution.VIRTUAL_THREADS).window(1).offload(Offload.EXECUTOR).build()
                .violations()).singleElement()
                .satisfies(v -> assertThat(v.field()).isEqualTo("offload"))
                .satisfies(v -> assertThat(v.allowed()).startsWith("loop with virtual-threads execution"));
        assertThat(RunSpec.builder().target("127.0.0.1:7").blockingMicros(10).offload(Offload.VIRTUAL_THREADS)
                .build().violations()).extracting(Violation::field).containsExactly("blockingMicros", "offload");
    }
}
