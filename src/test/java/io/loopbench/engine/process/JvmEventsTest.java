package io.loopbench.engine.process;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The monitor reads the recorder's events when asked, not at the recorder's next flush, and loses none when it
 * replaces its recording.
 */
class JvmEventsTest {

    private static List<JvmEvents.Event> collections(JvmEvents events, Instant from) {
        return events.eventsIn(from, Instant.now().plusSeconds(1)).stream()
                .filter(e -> e.kind() == JvmEvents.Kind.GC && e.description().contains("System.gc()")).toList();
    }

    /** A stream would hand the collection over at its next flush, about a second later: this has it at once. */
    @Test
    void everyEventCommittedBeforeTheReadIsIn() {
        JvmEvents events = new JvmEvents(Long.MAX_VALUE);
        try {
            Instant from = Instant.now();
            System.gc();

            assertThat(events.awaitEvents()).isTrue();

            assertThat(collections(events, from)).hasSize(1);
            assertThat(collections(events, Instant.now().plusSeconds(1))).isEmpty();
        } finally {
            events.close();
        }
    }

    /** Each read past the size replaces the recording; the events of the old one stay, each once. */
    @Test
    void replacingTheRecordingKeepsEveryEventOnce() {
        JvmEvents events = new JvmEvents(1);
        try {
            Instant from = Instant.now();
            System.gc();
            assertThat(events.awaitEvents()).isTrue(); // past 1 byte: replaced
            System.gc();
            assertThat(events.awaitEvents()).isTrue(); // the second from the new recording, and replaced again
            assertThat(events.awaitEvents()).isTrue();

            assertThat(collections(events, from)).hasSize(2);
        } finally {
            events.close();
        }
    }
}
