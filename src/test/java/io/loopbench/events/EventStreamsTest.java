package io.loopbench.events;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * The bounds of the SSE streams, with emitters that record what is sent to them, or block as a client that stopped
 * reading does once the TCP buffers are full. A test that hangs (a send that blocks the caller) fails after 30 s.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class EventStreamsTest {

    /** A record: {@code queued}, {@code running} (ticks) or {@code done} (finished); {@code step} tells them apart. */
    record Rec(String id, String status, int step) {
    }

    /** The store the streams read back from: the service saves a record, then announces it. */
    final Map<String, Rec> store = new ConcurrentHashMap<>();
    final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : toClose) {
            c.close();
        }
    }

    Rec save(String id, String status, int step) {
        Rec r = new Rec(id, status, step);
        store.put(id, r);
        return r;
    }

    TestStreams streams(EventStreamsProperties settings, EventStreams.Slots slots) {
        TestStreams s = new TestStreams(settings, slots, store);
        toClose.add(s);
        return s;
    }

    TestStreams streams(EventStreamsProperties settings) {
        return streams(settings, new EventStreams.Slots(settings.maxSubscribers()));
    }

    static EventStreamsProperties settings(int perRecord, int total, Duration heartbeat) {
        return new EventStreamsProperties(perRecord, total, Duration.ofHours(1), heartbeat, 32);
    }

    @Test
    void aClientThatStopsReadingIsDroppedWithoutHoldingUpTheRunnerWhileOneThatKeepsUpGetsEveryEventAndTheEnd() {
        TestStreams streams = streams(EventStreamsProperties.defaults());
        CountDownLatch neverRead = new CountDownLatch(1);
        try {
            assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
                Rec first = save("r1", "running", 0);
                streams.gate = neverRead;
                TestEmitter slow = streams.subscribe(first);
                streams.gate = null;
                TestEmitter healthy = streams.subscribe(first);
                // its sender has taken the first event and waits on the client: a busy machine may start the
                // sender late, and a sender that never got to write would find the subscriber dropped and end it
                slow.blocked.await();

                // changed() only enqueues: one that waited on the slow client would wait until the timeout above
                for (int i = 1; i <= 1000; i++) {
                    streams.changed(save("r1", "running", i));
                    if (i % 16 == 0) {
                        assertThat(healthy.awaitStep(i)).isTrue(); // keeps up: never 32 events behind
                    }
                }
                assertThat(streams.subscriberCount("r1")).as("the slow one dropped, the healthy one kept").isEqualTo(1);
                Rec done = save("r1", "done", 1000);
                streams.changed(done);

                assertThat(healthy.awaitCompleted()).isTrue();
                List<Received> got = healthy.received();
                assertThat(got).last().isEqualTo(new Received(EventStreams.FINISHED, done));
                assertThat(got).filteredOn(r -> r.name().equals(EventStreams.FINISHED)).hasSize(1);
                assertThat(got.stream().filter(r -> r.name().equals(EventStreams.PROGRESS))
                        .map(r -> r.data().step()).distinct()).containsAll(IntStream.rangeClosed(0, 1000).boxed()
                        .toList());

                assertThat(slow.received()).isEmpty();
                assertThat(slow.completed.getCount()).as("its sender is still blocked on it").isEqualTo(1);
                neverRead.countDown(); // the write times out, say: its sender ends the stream, and sends no more
                assertThat(slow.awaitCompleted()).isTrue();
                assertThat(slow.received()).extracting(Received::name).containsExactly(EventStreams.PROGRESS);
                assertThat(streams.subscriberCount()).isZero();
            });
        } finally {
            neverRead.countDown();
        }
    }

    @Test
    void subscribersAreCappedPerRecordAndInAllAndAClosedOneFreesItsPlace() throws Exception {
        EventStreamsProperties settings = settings(2, 3, Duration.ofSeconds(15));
        EventStreams.Slots slots = new EventStreams.Slots(3);
        TestStreams runs = streams(settings, slots);
        TestStreams matrices = streams(settings, slots);
        Rec a = save("a", "running", 0);
        Rec b = save("b", "queued", 0);
        Rec c = save("c", "queued", 0);

        TestEmitter a1 = runs.subscribe(a);
        TestEmitter a2 = runs.subscribe(a);
        assertThatThrownBy(() -> runs.subscribe(a)).isInstanceOfSatisfying(EventStreams.TooManySubscribers.class,
                e -> {
                    assertThat(e.setting()).isEqualTo("loopbench.events.max-subscribers-per-record");
                    assertThat(e.limit()).isEqualTo(2);
                    assertThat(e.getMessage()).contains("2 event streams of a are open",
                            "loopbench.events.max-subscribers-per-record = 2");
                });
        TestEmitter b1 = matrices.subscribe(b);
        assertThat(slots.used()).isEqualTo(3);
        assertThatThrownBy(() -> runs.subscribe(c)).isInstanceOfSatisfying(EventStreams.TooManySubscribers.class,
                e -> {
                    assertThat(e.setting()).isEqualTo("loopbench.events.max-subscribers");
                    assertThat(e.getMessage()).contains("3 event streams are open",
                            "loopbench.events.max-subscribers = 3");
                });
        assertThat(slots.used()).as("a refusal takes no place").isEqualTo(3);

        a1.completion.run(); // the client went away
        TestEmitter c1 = runs.subscribe(c);
        a2.timeout.run();
        assertThat(a2.awaitCompleted()).as("a stream that timed out is completed").isTrue();
        TestEmitter c2 = runs.subscribe(c);
        b1.error.accept(new IOException("connection reset"));
        TestEmitter a3 = runs.subscribe(a);
        assertThat(slots.used()).isEqualTo(3);
        assertThat(runs.subscriberCount()).isEqualTo(3);

        runs.changed(save("c", "done", 1)); // the end frees the places of its streams
        assertThat(c1.awaitCompleted()).isTrue();
        assertThat(c2.awaitCompleted()).isTrue();
        assertThat(slots.used()).isEqualTo(1);
        matrices.subscribe(b);
        runs.subscribe(a);
        assertThat(slots.used()).isEqualTo(3);
        // its current state was sent to it, by the sender's thread: waited for, not assumed done by now
        assertThat(a3.awaitAny()).as("a3 received its current state").isTrue();
    }

    @Test
    void aSlowClientThatIsDroppedFreesItsPlace() throws Exception {
        TestStreams streams = streams(settings(1, 1, Duration.ofSeconds(15)));
        CountDownLatch neverRead = new CountDownLatch(1);
        try {
            streams.gate = neverRead;
            streams.subscribe(save("r1", "running", 0));
            streams.gate = null;
            assertThatThrownBy(() -> streams.subscribe(store.get("r1")))
                    .isInstanceOf(EventStreams.TooManySubscribers.class);
            for (int i = 1; i <= 40; i++) {
                streams.changed(save("r1", "running", i));
            }
            TestEmitter next = streams.subscribe(store.get("r1"));
            assertThat(next.awaitStep(40)).isTrue();
        } finally {
            neverRead.countDown();
        }
    }

    @Test
    void aClientThatHasGoneIsRemovedAndItsStreamEndedWithTheError() throws Exception {
        TestStreams streams = streams(EventStreamsProperties.defaults());
        streams.failing = true;
        TestEmitter gone = streams.subscribe(save("r1", "running", 0));
        assertThat(gone.awaitCompleted()).isTrue();
        assertThat(gone.failure).isInstanceOf(IOException.class);
        assertThat(streams.subscriberCount()).isZero();
    }

    @Test
    void aSubscriberThatArrivesAsTheRecordEndsGetsTheFinishedEventOnce() throws Exception {
        TestStreams streams = streams(EventStreamsProperties.defaults());
        // The controller read the record while it ran; the runner stored the end and announced it before the
        // subscriber was registered.
        Rec stale = save("r1", "running", 3);
        Rec done = save("r1", "done", 3);
        streams.changed(done);
        TestEmitter late = streams.subscribe(stale);
        assertThat(late.awaitCompleted()).as("the stream ends").isTrue();
        assertThat(late.received()).containsExactly(new Received(EventStreams.FINISHED, done));
        assertThat(streams.subscriberCount()).isZero();

        // registered before the end: told by changed(), once, even if the end is announced twice
        Rec stale2 = save("r2", "running", 3);
        TestEmitter early = streams.subscribe(stale2);
        Rec done2 = save("r2", "done", 4);
        streams.changed(done2);
        streams.changed(done2);
        assertThat(early.awaitCompleted()).isTrue();
        assertThat(early.received()).containsExactly(new Received(EventStreams.PROGRESS, stale2),
                new Received(EventStreams.FINISHED, done2));

        // and when the two really race
        for (int i = 0; i < 200; i++) {
            String id = "race" + i;
            Rec running = save(id, "running", 1);
            Rec end = new Rec(id, "done", 2);
            CyclicBarrier start = new CyclicBarrier(2);
            Thread runner = Thread.ofPlatform().start(() -> {
                await(start);
                store.put(id, end);
                streams.changed(end);
            });
            await(start);
            TestEmitter e = streams.subscribe(running);
            runner.join();
            assertThat(e.awaitCompleted()).as(id).isTrue();
            assertThat(e.received()).as(id).filteredOn(r -> r.name().equals(EventStreams.FINISHED))
                    .containsExactly(new Received(EventStreams.FINISHED, end));
            assertThat(e.received()).as(id).last().isEqualTo(new Received(EventStreams.FINISHED, end));
        }
        assertThat(streams.subscriberCount()).isZero();
    }

    @Test
    void everyStreamGetsAHeartbeatAndTheConfiguredTimeout() throws Exception {
        EventStreamsProperties settings = new EventStreamsProperties(16, 256, Duration.ofMinutes(7),
                Duration.ofMillis(100), 32);
        TestStreams streams = streams(settings);
        TestEmitter queued = streams.subscribe(save("r1", "queued", 0)); // not running: no progress ticks
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (queued.received().stream().filter(r -> r.name().equals(EventStreams.HEARTBEAT)).count() < 2
                && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(queued.received()).first().isEqualTo(new Received(EventStreams.PROGRESS, store.get("r1")));
        assertThat(queued.received()).filteredOn(r -> r.name().equals(EventStreams.HEARTBEAT)).hasSizeGreaterThan(1);
        assertThat(queued.received().get(1).data()).isNull();
        assertThat(queued.getTimeout()).isEqualTo(Duration.ofMinutes(7).toMillis());
    }

    @Test
    void aSubscriberAfterTheEndGetsTheFinishedEventAtOnceAndTakesNoPlace() throws Exception {
        TestStreams streams = streams(settings(1, 1, Duration.ofSeconds(15)));
        Rec done = save("r1", "done", 5);
        for (int i = 0; i < 3; i++) {
            TestEmitter e = streams.subscribe(done);
            assertThat(e.awaitCompleted()).isTrue();
            assertThat(e.received()).containsExactly(new Received(EventStreams.FINISHED, done));
        }
        assertThat(streams.subscriberCount()).isZero();
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** What a client received: an event's name and data, or {@code heartbeat} (a comment) with no data. */
    record Received(String name, Rec data) {
    }

    static final class TestStreams extends EventStreams<Rec> {
        /** When set, new subscribers' sends block on it (a client that stopped reading). */
        volatile CountDownLatch gate;
        /** When set, new subscribers' sends fail (a client that has gone). */
        volatile boolean failing;

        TestStreams(EventStreamsProperties settings, Slots slots, Map<String, Rec> store) {
            super(Rec::id, r -> r.status().equals("done"), r -> r.status().equals("running"), (r, t) -> r,
                    id -> Optional.ofNullable(store.get(id)), settings, slots);
        }

        @Override
        protected SseEmitter newEmitter(long timeoutMillis) {
            return new TestEmitter(timeoutMillis, gate, failing);
        }

        @Override
        public TestEmitter subscribe(Rec record) {
            return (TestEmitter) super.subscribe(record);
        }
    }

    /** Records what is sent, and the callbacks Spring MVC would call; never handed to a container. */
    static final class TestEmitter extends SseEmitter {
        private final CountDownLatch gate;
        private final boolean failing;
        private final BlockingQueue<Received> received = new LinkedBlockingQueue<>();
        private final List<Received> log = new CopyOnWriteArrayList<>();
        final CountDownLatch completed = new CountDownLatch(1);
        /** Counted down when a send first waits at the gate: its sender is blocked on this client. */
        final CountDownLatch blocked = new CountDownLatch(1);
        final AtomicInteger completions = new AtomicInteger();
        volatile Throwable failure;
        volatile Runnable completion = () -> { };
        volatile Runnable timeout = () -> { };
        volatile Consumer<Throwable> error = e -> { };

        TestEmitter(long timeoutMillis, CountDownLatch gate, boolean failing) {
            super(timeoutMillis);
            this.gate = gate;
            this.failing = failing;
        }

        @Override
        public void send(SseEventBuilder event) throws IOException {
            if (failing) {
                throw new IOException("Broken pipe");
            }
            if (gate != null) {
                blocked.countDown();
                try {
                    gate.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException(e);
                }
            }
            Received r = parse(event.build());
            log.add(r);
            received.add(r);
        }

        private static Received parse(Set<ResponseBodyEmitter.DataWithMediaType> parts) {
            StringBuilder text = new StringBuilder();
            Rec data = null;
            for (ResponseBodyEmitter.DataWithMediaType part : parts) {
                if (part.getData() instanceof Rec r) {
                    data = r;
                } else {
                    text.append(part.getData());
                }
            }
            String s = text.toString();
            if (s.startsWith(":")) {
                return new Received(s.substring(1).strip(), null);
            }
            String name = s.lines().filter(l -> l.startsWith("event:")).map(l -> l.substring(6)).findFirst()
                    .orElseThrow();
            return new Received(name, data);
        }

        @Override
        public void complete() {
            completions.incrementAndGet();
            completed.countDown();
        }

        @Override
        public void completeWithError(Throwable ex) {
            failure = ex;
            complete();
        }

        @Override
        public void onCompletion(Runnable callback) {
            completion = callback;
        }

        @Override
        public void onTimeout(Runnable callback) {
            timeout = callback;
        }

        @Override
        public void onError(Consumer<Throwable> callback) {
            error = callback;
        }

        List<Received> received() {
            return List.copyOf(log);
        }

        /** Waits until something has been sent to this client (taking it from the queue). */
        boolean awaitAny() throws InterruptedException {
            return received.poll(10, TimeUnit.SECONDS) != null;
        }

        boolean awaitCompleted() throws InterruptedException {
            return completed.await(10, TimeUnit.SECONDS);
        }

        /** Waits until a progress event of at least this step has arrived. */
        boolean awaitStep(int step) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (System.nanoTime() < deadline) {
                Received r = received.poll(10, TimeUnit.MILLISECONDS);
                if (r != null && r.data() != null && r.data().step() >= step) {
                    return true;
                }
            }
            return false;
        }
    }
}
