package io.loopbench.engine.client;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The window's slots and its order rule, for a byte stream, for datagrams and for independent streams. */
class WindowTest {

    /** Fills every slot from the one the next sequence maps to, as a client fills its window. */
    private static void fill(Window w) {
        int first = w.nextSlot();
        for (int k = 0; k < w.size(); k++) {
            w.take((first + k) % w.size(), k);
        }
    }

    @Test
    void sequencesAreContiguousAndEachIsFoundInItsSlot() {
        Window w = new Window(4, EchoOrder.SENT, false);
        fill(w);

        assertThat(w.inFlight()).isEqualTo(4);
        for (long seq = 0; seq < 4; seq++) {
            assertThat(w.slotOf(seq)).isEqualTo((int) seq);
            assertThat(w.sequence((int) seq)).isEqualTo(seq);
        }
        assertThat(w.slotOf(4)).isEqualTo(-1);
        assertThat(w.freeSlot()).isEqualTo(-1);
    }

    @Test
    void aStreamsEchoMustBeTheNextSequenceAndItsFreedSlotTakesTheNextOne() {
        Window w = new Window(4, EchoOrder.SENT, false);
        fill(w);

        assertThat(w.returned(w.slotOf(0))).isTrue();
        assertThat(w.freeSlot()).isEqualTo(0);
        assertThat(w.take(0, 10)).isEqualTo(4);
        assertThat(w.returned(w.slotOf(2))).as("sequence 1 was next").isFalse();
        assertThat(w.returned(w.slotOf(3))).isTrue();
    }

    @Test
    void datagramsMayComeWithGapsButNotBackwardsAndALostOnesSlotTakesALaterSequence() {
        Window w = new Window(4, EchoOrder.RISING, false);
        fill(w);

        assertThat(w.returned(w.slotOf(2))).isTrue();
        assertThat(w.returned(w.slotOf(0))).as("below the last seen").isFalse();
        w.free(1);
        assertThat(w.take(1, 20)).as("the smallest above every sequence sent that maps to slot 1").isEqualTo(5);
        assertThat(w.sentAt(1)).isEqualTo(20);
    }

    @Test
    void independentStreamsMayComeInAnyOrderEachMatchedByItsSequence() {
        Window w = new Window(4, EchoOrder.ANY, false);
        fill(w);

        assertThat(w.returned(w.slotOf(2))).isTrue();
        assertThat(w.returned(w.slotOf(0))).as("below the last seen, yet in order for independent streams").isTrue();
        assertThat(w.freeSlot()).as("the slot sequence 4 maps to").isEqualTo(0);
        assertThat(w.take(0, 10)).isEqualTo(4);
        assertThat(w.take(w.freeSlot(), 11)).as("slot 2: the smallest above every sequence sent").isEqualTo(6);
        assertThat(w.slotOf(5)).as("never sent").isEqualTo(-1);
        assertThat(w.returned(w.slotOf(6))).isTrue();
        assertThat(w.returned(w.slotOf(1))).isTrue();
    }

    @Test
    void clearingCountsWhatWasInFlightAndTheNextEchoExpectedIsTheNextSent() {
        Window w = new Window(4, EchoOrder.SENT, true);
        fill(w);
        w.intended(3, 7);
        assertThat(w.intendedAt(3)).isEqualTo(7);

        assertThat(w.clear()).isEqualTo(4);

        assertThat(w.inFlight()).isZero();
        assertThat(w.slotOf(0)).isEqualTo(-1);
        int slot = w.freeSlot();
        assertThat(w.take(slot, 30)).isEqualTo(4);
        assertThat(w.returned(slot)).isTrue();
    }
}
