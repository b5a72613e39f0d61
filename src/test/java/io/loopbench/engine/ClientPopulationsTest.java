package io.loopbench.engine;

import io.loopbench.engine.spec.IoModel;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.loopbench.engine.EngineTestSupport.brief;
import static io.loopbench.engine.EngineTestSupport.quick;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Clients on their server end's thread and the others, apart: their echoes, their mean RTT as the full window gives
 * it, and in words on an uneven repetition's warning; nothing where the layout does not split them.
 */
class ClientPopulationsTest {

    @Test
    void eachGroupHasItsOwnEchoesAndTheMeanRttItsFullWindowGives() {
        long[] perClient = {3_000, 1_000, 2_800, 1_200};
        ClientPopulations p = ClientPopulations.of(perClient, List.of(true, false, true, false), 4, 2.0,
                3_100.0, 9_050.0);

        assertThat(p.sameThread()).isEqualTo(new ClientPopulations.Population(2, 5_800, 2_800, 3_000,
                2 * 4 * 2.0 / 5_800 * 1e6, 3_100.0));
        assertThat(p.otherThread().clients()).isEqualTo(2);
        assertThat(p.otherThread().messages()).isEqualTo(2_200);
        assertThat(p.otherThread().minMessages()).isEqualTo(1_000);
        assertThat(p.otherThread().maxMessages()).isEqualTo(1_200);
        // 2 clients × 4 in flight for 2 s over 2,200 echoes: 7,273 µs each
        assertThat(p.otherThread().meanRttUs()).isCloseTo(7_272.7, within(0.1));
        assertThat(p.words()).isEqualTo("the 2 clients on their server end's thread completed 2.64× the echoes per "
                + "client of the 2 others (p99 3,100 µs against 9,050 µs; mean RTT 2,759 µs against 7,273 µs)");
    }

    @Test
    void withoutAFullWindowNoMeanRttAndAGroupWithNoEchoesIsNamed() {
        ClientPopulations p = ClientPopulations.of(new long[] {500, 0, 0}, List.of(true, false, false), null, 1,
                80.0, null);
        assertThat(p.sameThread().meanRttUs()).isNull();
        assertThat(p.words()).isEqualTo("the 1 client on their server end's thread completed all the echoes per "
                + "client of the 2 others");
    }

    @Test
    void aLayoutThatDoesNotSplitTheClientsHasNoPopulations() {
        long[] perClient = {10, 20};
        assertThat(ClientPopulations.of(perClient, List.of(true, true), 1, 1, null, null)).isNull();
        assertThat(ClientPopulations.of(perClient, List.of(false, false), 1, 1, null, null)).isNull();
        assertThat(ClientPopulations.of(perClient, null, 1, 1, null, null)).as("virtual threads, a remote target")
                .isNull();
    }

    @Test
    void anUnevenRepetitionsWarningNamesTheGroups() {
        ClientPopulations p = ClientPopulations.of(new long[] {3_000, 1_000}, List.of(true, false), 1, 1,
                10.0, 30.0);
        Fairness f = Fairness.of(new long[] {3_000, 1_000}).withPopulations(p);
        assertThat(f.warning()).endsWith("blend clients served unequally: " + p.words());
        assertThat(Fairness.of(new long[] {3_000, 1_000}).warning()).endsWith("blend clients served unequally");
    }

    /**
     * UDP on a shared group of two threads: the one server socket takes the first thread, the clients' sockets the
     * next ones in turn, so clients 1 and 3 share its thread and 0 and 2 do not. Which group a busy machine serves
     * more is not asserted (the repetition may even fail as unfair): that the groups are the layout's and add up is.
     */
    @Test
    void aSharedLayoutOfTwoThreadsSplitsItsClientsAndTheGroupsAddUp() {
        RunSpec spec = brief(quick()).protocol(Protocol.UDP).ioModel(IoModel.SHARED).ioThreads(2).clients(4).build();

        RepetitionResult r = EngineTestSupport.assertValidatedByEveryClient(
                EngineTestSupport.measure(spec).run().repetitions().getFirst(), 4);

        assertThat(r.setup().connectionsOnOneThread()).isEqualTo(2);
        ClientPopulations p = r.checks().fairness().populations();
        assertThat(p).isNotNull();
        assertThat(p.sameThread().clients()).isEqualTo(2);
        assertThat(p.otherThread().clients()).isEqualTo(2);
        assertThat(p.sameThread().messages() + p.otherThread().messages()).isEqualTo(r.throughput().messages());
        assertThat(Math.min(p.sameThread().minMessages(), p.otherThread().minMessages()))
                .isEqualTo(r.checks().fairness().minMessages());
        assertThat(Math.max(p.sameThread().maxMessages(), p.otherThread().maxMessages()))
                .isEqualTo(r.checks().fairness().maxMessages());
        // weighted by their echoes, the groups' mean RTTs are what the full window gives the whole repetition
        double weighted = (p.sameThread().meanRttUs() * p.sameThread().messages()
                + p.otherThread().meanRttUs() * p.otherThread().messages()) / r.throughput().messages();
        double whole = 4.0 * spec.window() * r.throughput().elapsedSeconds() / r.throughput().messages() * 1e6;
        assertThat(weighted).isCloseTo(whole, within(1e-9 * whole));
        // each group's own p99, from its own RTTs: the pooled p99 of a mix of two groups lies between theirs
        double low = Math.min(p.sameThread().p99Us(), p.otherThread().p99Us());
        double high = Math.max(p.sameThread().p99Us(), p.otherThread().p99Us());
        assertThat(r.rtt().latency().p99Us()).isBetween(low * 0.99, high * 1.01);
    }

    @Test
    void aShardedLayoutKeepsEveryClientOnItsServersThreadAndHasNoGroups() {
        RunSpec spec = brief(quick()).ioModel(IoModel.SHARDED).ioThreads(2).clients(4).build();

        RepetitionResult r = EngineTestSupport.assertValidatedByEveryClient(
                EngineTestSupport.measure(spec).run().repetitions().getFirst(), 4);

        assertThat(r.setup().connectionsOnOneThread()).isEqualTo(4);
        assertThat(r.checks().fairness().populations()).isNull();
    }
}
