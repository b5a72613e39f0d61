package io.loopbench.engine.client;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * Open load's clock for every client on one thread (an event loop): one timer for all of them, not one per message.
 * It asks its timer to wake it a little before the earliest due send — by a lead that follows how late the loop's
 * timer wakes it, within bounds — and spins out the rest, so that messages leave within microseconds of their intended
 * time where the timer allows; then it lets the loop handle its IO before the next send. Thread ownership: confined to that thread, like its clients.
 */
public final class LoopPacer {

    /** "No message is due": the client has stopped generating them. */
    static final long NONE = Long.MAX_VALUE;
    /** A message sent later than this after its intended time is counted late. */
    public static final long LATE_THRESHOLD_NANOS = TimeUnit.MICROSECONDS.toNanos(100);
    /**
     * Bounds of the timer lead. Never less than this (a timer is never early); never more than {@code MAX}, since the
     * loop spins for the lead before each send: where timers wake a loop later than that (tens of microseconds on a
     * virtual machine), sends leave up to that much late — counted in the send lag — rather than the loop spinning away
     * a core and delaying the echoes it should read meanwhile (it shares the loop with its clients' IO). Measured on a
     * 2-vCPU VM at 20,000 msg/s (bench/LOG.md): a 20 µs cap gives send lag p50 ~34 µs at ~40 % CPU; a 50 µs cap
     * (before the pacer stopped spinning between untimed looks) spun without pause, 100 % CPU, and the same delay
     * reappeared in the echoes' RTT instead. The system property
     * {@code loopbench.pacer.maxLeadMicros} changes the cap, for {@code bench/pacer.sh}'s side-by-side only.
     */
    static final long MIN_LEAD_NANOS = TimeUnit.MICROSECONDS.toNanos(5);
    static final long MAX_LEAD_NANOS =
            TimeUnit.MICROSECONDS.toNanos(Long.getLong("loopbench.pacer.maxLeadMicros", 20));

    private final Executor executor;
    private final List<PacedLoad> clients = new ArrayList<>();
    private ClientIo.Cancellable timer;
    private long timerDue;
    private long lead = MAX_LEAD_NANOS;
    private boolean stopped;

    public LoopPacer(Executor executor) {
        this.executor = executor;
    }

    public Executor executor() {
        return executor;
    }

    /** Adds a client of this thread; before {@link #start} only. */
    public void add(EchoClient client) {
        clients.add(client.paced());
    }

    /** Starts pacing a phase; runs on the thread, after every client's {@code begin}. */
    public void start(PhaseContext phase) {
        stopped = false;
        tick(false);
    }

    /** Stops the timer; the phase barrier runs it on the thread. */
    public void stop() {
        stopped = true;
        if (timer != null) {
            timer.cancel();
            timer = null;
        }
    }

    private void woken() {
        if (timerDue != NONE) {
            // how late the timer woke us steers the lead: a quarter more than the last lateness, plus a margin
            long late = System.nanoTime() - timerDue;
            long target = Math.min(MAX_LEAD_NANOS, Math.max(MIN_LEAD_NANOS, late + late / 4 + MIN_LEAD_NANOS));
            lead += (target - lead) / 4;
        }
        boolean fromTimer = timerDue != NONE;
        timer = null;
        tick(fromTimer);
    }

    /**
     * Sends what is due, or waits for it: by a timer when the next send is further than the lead; by spinning only
     * when a timer has just woken the loop for it; otherwise (sends closer together than the lead, so the loop never
     * sleeps) by looking again after the loop's next round of IO — a spin there would keep the loop from reading the
     * echoes while messages pile up behind it.
     */
    private void tick(boolean fromTimer) {
        if (stopped) {
            return;
        }
        long next = NONE;
        for (PacedLoad c : clients) {
            next = Math.min(next, c.nextDue());
        }
        if (next == NONE) {
            return;
        }
        long wait = next - System.nanoTime();
        if (wait > lead) {
            timerDue = next - lead;
            timer = clients.getFirst().schedule(this::woken, wait - lead);
            return;
        }
        if (wait > 0 && !fromTimer) {
            lookAgain();
            return;
        }
        while (System.nanoTime() - next < 0) {
            Thread.onSpinWait();
        }
        long now = System.nanoTime();
        for (PacedLoad c : clients) {
            c.paceDue(now);
        }
        lookAgain();
    }

    /**
     * The next look is a timer task too (due at once): the loop reads, writes and runs the timer tasks due before it
     * first; a task queued with execute() would be run again and again ahead of them.
     */
    private void lookAgain() {
        timerDue = NONE;
        timer = clients.getFirst().schedule(this::woken, 0);
    }
}
