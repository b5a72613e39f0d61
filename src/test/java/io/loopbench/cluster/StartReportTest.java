package io.loopbench.cluster;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The skew of the client agents' measured phases and the warning a repetition carries when they did not run
 * together: from each agent's own phase start and stop once known, from the barrier's releases before.
 */
class StartReportTest {

    private static final ClockOffset OFFSET = new ClockOffset(0, 300_000, 16);
    private static final ClockOffset PRECISE = new ClockOffset(0, 50_000, 16);

    @Test
    void aSkewWithinOnePercentOfThePhaseWithItsUncertaintyIsNoWarning() {
        StartReport report = StartReport.of(List.of(new AgentStart("b", OFFSET, 100_000, 199_000_000L, null),
                new AgentStart("c", OFFSET, 19_000_000, 198_000_000L, null)));
        assertThat(report.skewNanos()).isEqualTo(18_900_000);
        assertThat(report.skewUncertaintyNanos()).isEqualTo(600_000);
        assertThat(report.fromPhases()).isFalse();
        assertThat(report.warning(2)).isNull();
        assertThat(report.warning(1)).isNotNull();
        // 18.9 ms is under 1 % of 1.9 s, but not with its ± 0.6 ms
        assertThat(report.warning(1.9)).isNotNull();
        assertThat(report.warning(1.96)).isNull();
    }

    @Test
    void theWarningNamesTheLastAgentAndWhetherItsOrderOrItsWakeUpWasLate() {
        StartReport wokeLate = StartReport.of(List.of(new AgentStart("agent-b", OFFSET, 71_529_591, 183_000_000L,
                null), new AgentStart("agent-c", OFFSET, 115, 190_000_000L, null)));
        assertThat(wokeLate.warning(2)).isEqualTo("start skew 71.5 ms (± 0.6 ms), over 1.0 % of the 2.0 s phase: the "
                + "client agents loaded the server together for only part of it (agent-b started 71.5 ms after the "
                + "instant; its order arrived 183.0 ms ahead of the instant, so it woke late)");

        StartReport toldLate = StartReport.of(List.of(new AgentStart("agent-b", OFFSET, 0, 150_000_000L, null),
                new AgentStart("agent-c", OFFSET, 40_000_000, -39_500_000L, null)));
        assertThat(toldLate.warning(2.5)).endsWith("(agent-c started 40.0 ms after the instant; its order arrived "
                + "39.5 ms after the instant)");

        // a result stored before the notice was recorded
        StartReport unknown = StartReport.of(List.of(new AgentStart("a", OFFSET, 0, null, null),
                new AgentStart("b", OFFSET, 30_000_000, null, null)));
        assertThat(unknown.warning(1)).endsWith("(b started 30.0 ms after the instant)");
    }

    @Test
    void aPhaseThatBeganLateAfterASimultaneousReleaseIsTheSkewAndNamesWhereTheDelayArose() {
        StartReport barrier = StartReport.of(List.of(new AgentStart("agent-b", PRECISE, 100_000, 190_000_000L, null),
                new AgentStart("agent-c", PRECISE, 120_000, 190_000_000L, null)));
        assertThat(barrier.skewNanos()).isEqualTo(20_000);
        assertThat(barrier.warning(1)).as("the barrier alone saw them start together").isNull();

        // agent-c's repetition thread began the phase 25 ms after its release; both were told to stop a phase later
        StartReport measured = barrier.measured(Map.of("agent-b", new PhaseSpan(30_000, 1_000_030_000L),
                "agent-c", new PhaseSpan(25_000_000, 1_025_000_000L)));

        assertThat(measured.fromPhases()).isTrue();
        assertThat(measured.starts()).extracting(AgentStart::phaseLateNanos).containsExactly(130_000L, 25_120_000L);
        assertThat(measured.skewNanos()).isEqualTo(24_990_000);
        assertThat(measured.stopSkewNanos()).isEqualTo(24_990_000);
        assertThat(measured.overlapNanos()).isEqualTo(1_000_130_000L - 25_120_000L);
        assertThat(measured.warning(1)).isEqualTo("start skew 25.0 ms (± 0.1 ms) and stop skew 25.0 ms, over 1.0 % of "
                + "the 1.0 s phase: the client agents loaded the server together for only 0.975 s of it (agent-c began its measured phase 25.1 ms after the instant; its "
                + "order arrived 190.0 ms ahead of the instant, its barrier released it 0.1 ms after the instant and "
                + "its clients began 25.0 ms after that)");
    }

    @Test
    void aLateStopWarnsThoughThePhasesBeganTogether() {
        StartReport barrier = StartReport.of(List.of(new AgentStart("b", PRECISE, 0, 1L, null),
                new AgentStart("c", PRECISE, 0, 1L, null)));
        StartReport measured = barrier.measured(Map.of("b", new PhaseSpan(10_000, 1_000_010_000L),
                "c", new PhaseSpan(10_000, 1_030_010_000L)));
        assertThat(measured.skewNanos()).isZero();
        assertThat(measured.stopSkewNanos()).isEqualTo(30_000_000);
        assertThat(measured.overlapNanos()).isEqualTo(1_000_000_000);
        assertThat(measured.warning(1)).startsWith("start skew 0.0 ms (± 0.1 ms) and stop skew 30.0 ms, over");
    }

    @Test
    void withoutEveryAgentsSpanTheSkewStaysTheBarriers() {
        StartReport barrier = StartReport.of(List.of(new AgentStart("b", PRECISE, 0, 1L, null),
                new AgentStart("c", PRECISE, 40_000, 1L, null)));
        StartReport measured = barrier.measured(Map.of("b", new PhaseSpan(5_000_000, 1_005_000_000L)));
        assertThat(measured.fromPhases()).isFalse();
        assertThat(measured.skewNanos()).isEqualTo(40_000);
        assertThat(measured.stopSkewNanos()).isNull();
        assertThat(measured.overlapNanos()).isNull();
    }

    @Test
    void oneAgentAloneHasNoSkew() {
        StartReport alone = StartReport.of(List.of(new AgentStart("b", OFFSET, 90_000_000, -1L, null)))
                .measured(Map.of("b", new PhaseSpan(1_000, 500_001_000L)));
        assertThat(alone.skewNanos()).isZero();
        assertThat(alone.stopSkewNanos()).isZero();
        assertThat(alone.warning(0.5)).isNull();
    }
}
