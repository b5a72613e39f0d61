package io.loopbench.matrices;

import io.loopbench.engine.RepetitionResult;
import io.loopbench.race.RaceTest;
import io.loopbench.runs.RepetitionOutcome;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A matrix's groups judged as races: which cases need no more repetitions after each round, on figures whose truth is
 * known.
 */
class GroupRacesTest {

    /** Shared 1, shared 2 and sharded 2 of one group, at most 5 repetitions, at least 3. */
    private static MatrixRecord queued() {
        MatrixSpec spec = MatrixServiceTest.small(5, 0.5).effective();
        assertThat(spec.leastRepetitions()).isEqualTo(3);
        assertThat(spec.stopsWhenDecided()).isTrue();
        return MatrixRecord.queued("m", spec, spec.cases(), List.of(), 0, Instant.EPOCH, null);
    }

    private static MatrixRecord round(MatrixRecord m, int round, double... rates) {
        for (int c = 0; c < rates.length; c++) {
            RepetitionResult r = RaceTest.passed(rates[c], 400, 10).withRepetition(round);
            m = m.withStep(c, new RepetitionOutcome(r, null, null, null));
        }
        return m;
    }

    @Test
    void aCaseEstablishedWorseStopsAndTheLeadersRunOnUntilTheirGroupIsDecided() {
        MatrixRecord m = queued();
        m = round(m, 1, 0.5e6, 1.00e6, 1.01e6);
        assertThat(GroupRaces.done(m)).as("one round decides nothing").isEmpty();
        m = round(m, 2, 0.5e6, 1.02e6, 0.99e6);
        // shared 1 at half the others is out; shared 2 and sharded 2, 1 % apart, are neither apart nor shown alike
        assertThat(GroupRaces.done(m)).containsExactly(0);
        assertThat(GroupRaces.judge(m.cases(), 5).decidedAtRound()).isNull();
    }

    @Test
    void aGroupWithOneClearWinnerIsDecidedAndEveryCaseStops() {
        MatrixRecord m = queued();
        m = round(m, 1, 0.5e6, 1.0e6, 0.5e6);
        m = round(m, 2, 0.5e6, 1.0e6, 0.5e6);
        assertThat(GroupRaces.done(m)).containsExactlyInAnyOrder(0, 1, 2);
    }

    @Test
    void leastRepetitionsOutOfRangeIsRefusedNamingTheField() {
        MatrixSpec s = MatrixServiceTest.small(3, 0.5);
        MatrixSpec tooMany = new MatrixSpec(s.protocols(), s.payloads(), s.profiles(), s.ioModels(), s.ioThreads(),
                null, null, null, null, 0.5, 0.1, 3, false, s.isolation(), null, null, s.warmupMode(), null, null,
                null, null, null, null, 4, null, null, null, null);
        assertThat(tooMany.effective().listViolations()).anySatisfy(v -> {
            assertThat(v.field()).isEqualTo("leastRepetitions");
            assertThat(v.allowed()).isEqualTo("1 … repetitions (3)");
        });
        assertThat(MatrixServiceTest.small(3, 0.5).effective().stopsWhenDecided()).as("3 of 3: every one runs")
                .isFalse();
    }

    /**
     * The default matrix (arknet's sweep, 210 cases) fits the service's default limit of 14,400 s at its most, every
     * case running its 5 repetitions of an auto warm-up halfway to its cap, 3 s measured and the JVM's start and exit.
     */
    @Test
    void theDefaultMatrixFitsTheDefaultLimitAtItsMost() {
        MatrixSpec spec = new MatrixSpec(null, null, null, null, null, null, null, null, null, null, null, null, null,
                null, null, null, null, null, null, null, null, null, null, null, null, null, null, null).effective();
        List<io.loopbench.engine.spec.RunSpec> cases = spec.cases();
        assertThat(cases).hasSize(210);
        double most = MatrixService.estimate(spec, cases, List.of());
        assertThat(most).isEqualTo(210 * 5 * io.loopbench.race.Racer.repetitionSeconds(cases.getFirst()))
                .isLessThanOrEqualTo(14_400);
    }
}
