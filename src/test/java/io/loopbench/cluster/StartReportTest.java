package io.loopbench.cluster;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The skew of a start and the warning a repetition carries when its client agents did not start together. */
class StartReportTest {

    private static final ClockOffset OFFSET = new ClockOffset(0, 300_000, 16);

    @Test
    void aSkewWithinOnePercentOfThePhaseIsNoWarning() {
        StartReport report = StartReport.of(List.of(new AgentStart("b", OFFSET, 100_000, 199_000_000L),
                new AgentStart("c", OFFSET, 19_000_000, 198_000_000L)));
        assertThat(report.skewNanos()).isEqualTo(18_900_000);
        assertThat(report.skewUncertaintyNanos()).isEqualTo(600_000);
        assertThat(report.warning(2)).isNull();
        assertThat(report.warning(1)).isNotNull();
    }

    @Test
    void theWarningNamesTheLastAgentAndWhetherItsOrderOrItsWakeUpWasLate() {
        StartReport wokeLate = StartReport.of(List.of(new AgentStart("agent-b", OFFSET, 71_529_591, 183_000_000L),
                new AgentStart("agent-c", OFFSET, 115, 190_000_000L)));
        assertThat(wokeLate.warning(2)).isEqualTo("start skew 71.5 ms is 3.6 % of the 2.0 s phase: the client agents "
                + "loaded the server together for only part of it (agent-b started 71.5 ms after the instant; its "
                + "order arrived 183.0 ms ahead of the instant, so it woke late)");

        StartReport toldLate = StartReport.of(List.of(new AgentStart("agent-b", OFFSET, 0, 150_000_000L),
                new AgentStart("agent-c", OFFSET, 40_000_000, -39_500_000L)));
        assertThat(toldLate.warning(2.5)).isEqualTo("start skew 40.0 ms is 1.6 % of the 2.5 s phase: the client "
                + "agents loaded the server together for only part of it (agent-c started 40.0 ms after the instant; "
                + "its order arrived 39.5 ms after the instant)");

        // a result stored before the notice was recorded
        StartReport unknown = StartReport.of(List.of(new AgentStart("a", OFFSET, 0, null),
                new AgentStart("b", OFFSET, 30_000_000, null)));
        assertThat(unknown.warning(1)).endsWith("(b started 30.0 ms after the instant)");
    }

    @Test
    void oneAgentAloneHasNoSkew() {
        StartReport alone = StartReport.of(List.of(new AgentStart("b", OFFSET, 90_000_000, -1L)));
        assertThat(alone.skewNanos()).isZero();
        assertThat(alone.warning(0.5)).isNull();
    }
}
