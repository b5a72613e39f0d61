package io.loopbench.engine;

import com.fasterxml.jackson.annotation.JsonAlias;
import io.loopbench.engine.latency.Latency;
import io.loopbench.engine.process.CpuUsage;
import io.loopbench.engine.profile.CpuProfile;
import io.loopbench.engine.process.GcActivity;
import io.loopbench.engine.process.JitActivity;
import io.loopbench.engine.process.MemoryUsage;
import io.loopbench.engine.protocol.TlsSession;
import io.loopbench.engine.protocol.UdpBuffers;
import io.loopbench.engine.spec.Transport;
import io.loopbench.engine.timeline.Timeline;

import java.util.List;

/**
 * One repetition: its own loops, servers and clients, a warm-up and a measured phase. When set-up failed, the
 * figures are {@code null}; when validation failed, {@code ok} is false and {@code error} says why, and the
 * figures describe a run that must not be trusted.
 *
 * @param repetition            1-based index
 * @param ok                    true when every echo was validated and every error counter is zero
 * @param error                 why the repetition failed, in words ({@code failure}'s), or null
 * @param failure               why the repetition failed, as data; null when it passed (read from {@code error}'s
 *                              words in records stored before failures were data)
 * @param transport             the concrete transport used
 * @param serverChannel         Netty channel class of the server side; null with a target
 * @param clientChannel         Netty channel class of the client side
 * @param serverAddress         where the echoes came from: this repetition's servers, or the target
 * @param clientAddress         the first client's local address
 * @param remote                true when the client side ran against a target instead of its own loopback servers
 *                              (absent in records stored before targets existed: those are loopback)
 * @param eventLoops            event-loop threads (ioThreads); virtual-threads execution: the carrier threads that
 *                              ran, counted
 * @param connectionsOnOneThread connections whose client end and server end run on the same event-loop thread; null
 *                              with a target
 * @param tcpNoDelay            TCP: whether TCP_NODELAY was in effect on every socket of both ends; null for UDP
 * @param udpBuffers            UDP: requested and applied socket buffers; null for TCP
 * @param tls                   tcps: the TLS provider, protocol version and cipher suite the first client's handshake
 *                              negotiated; null for tcp and udp
 * @param elapsedSeconds        measured phase wall time, drain and barrier included (as arknet)
 * @param messagesSent          messages written in the measured phase
 * @param messages              validated echoes in the measured phase
 * @param roundTripsPerSecond   messages / elapsedSeconds
 * @param payloadMibPerSecond   2 × payloadBytes × messages / elapsedSeconds / 2^20 (both directions)
 * @param latency               round-trip times of the measured phase, in microseconds; with open load measured
 *                              from each message's intended send time (corrected for coordinated omission)
 * @param cpu                   process CPU over the measured phase and its drain
 * @param memory                resident memory at the end of the measured phase, and its peak
 * @param gc                    garbage collection during the measured phase
 * @param errors                every error counter of the measured phase
 * @param warmup                the warm-up phase; null when warmupSeconds is 0
 * @param uncorrectedLatency    open load only: round-trip times from each message's actual send time
 * @param openLoad              open load only: messages due, late and dropped, and the pacer's send lag
 * @param jit                   JIT compilations and deoptimizations during the measured phase
 * @param fairness              validated echoes per client: min, max and Jain's index
 * @param windowFill            closed sliding-window load only: round trips/s × mean RTT against clients × window
 *                              (stored before this name as {@code littlesLaw})
 * @param stampGap              from each message's send stamp to the hand-over of its bytes to the transport (null in
 *                              records stored before it)
 * @param warnings              what makes a passed repetition's figures doubtful, in words (e.g. a measured phase
 *                              that was not JIT-quiet, clients served unevenly); a figure with a warning is never
 *                              part of an established verdict; empty when none
 * @param notes                 what a user should know but does not make a figure doubtful (e.g. an auto warm-up
 *                              capped while the JIT was busy, which the measured phase's own JIT check then judged;
 *                              JIT activity unknown); empty when none
 * @param latencyHistogram      every RTT of {@code latency}, in nanoseconds: an HdrHistogram in its compressed
 *                              encoding, Base64 (as in HdrHistogram's log format), so that repetitions, runs and
 *                              hosts can be merged exactly
 * @param timeline              the repetition over time: warm-up and measured phase in intervals, with the process's
 *                              GC and JIT events (absent in records stored before timelines existed)
 * @param cpuProfile            where the measured phase's CPU time went, with {@code profiling} {@code cpu}; null
 *                              when not profiled (records stored before profiles too), or when no profile could be
 *                              taken, which a note then says why
 */
public record RepetitionResult(
        int repetition,
        boolean ok,
        String error,
        Failure failure,
        Transport transport,
        String serverChannel,
        String clientChannel,
        String serverAddress,
        String clientAddress,
        Boolean remote,
        int eventLoops,
        Integer connectionsOnOneThread,
        Boolean tcpNoDelay,
        UdpBuffers udpBuffers,
        TlsSession tls,
        Double elapsedSeconds,
        Long messagesSent,
        Long messages,
        Double roundTripsPerSecond,
        Double payloadMibPerSecond,
        Latency latency,
        CpuUsage cpu,
        MemoryUsage memory,
        GcActivity gc,
        ErrorCounts errors,
        WarmupResult warmup,
        Latency uncorrectedLatency,
        OpenLoad openLoad,
        JitActivity jit,
        Fairness fairness,
        @JsonAlias("littlesLaw") WindowFill windowFill,
        StampGap stampGap,
        List<String> warnings,
        List<String> notes,
        String latencyHistogram,
        Timeline timeline,
        CpuProfile cpuProfile) {

    public RepetitionResult {
        failure = failure == null && error != null ? new Failure.Recorded(error) : failure;
        error = failure == null ? null : failure.message();
        warnings = warnings == null ? List.of() : List.copyOf(warnings);
        notes = notes == null ? List.of() : List.copyOf(notes);
    }

    /** The same result under another index: a forked worker numbers its single repetition 1. */
    public RepetitionResult withRepetition(int index) {
        return new RepetitionResult(index, ok, error, failure, transport, serverChannel, clientChannel, serverAddress,
                clientAddress, remote, eventLoops,
                connectionsOnOneThread, tcpNoDelay, udpBuffers, tls, elapsedSeconds, messagesSent, messages,
                roundTripsPerSecond, payloadMibPerSecond, latency, cpu, memory, gc, errors, warmup, uncorrectedLatency,
                openLoad, jit, fairness, windowFill, stampGap, warnings, notes, latencyHistogram, timeline, cpuProfile);
    }

    /** The same result without its timeline, for output that leaves it out. */
    public RepetitionResult withoutTimeline() {
        return new RepetitionResult(repetition, ok, error, failure, transport, serverChannel, clientChannel,
                serverAddress, clientAddress, remote, eventLoops,
                connectionsOnOneThread, tcpNoDelay, udpBuffers, tls, elapsedSeconds, messagesSent, messages,
                roundTripsPerSecond, payloadMibPerSecond, latency, cpu, memory, gc, errors, warmup, uncorrectedLatency,
                openLoad, jit, fairness, windowFill, stampGap, warnings, notes, latencyHistogram, null, cpuProfile);
    }

    /** A repetition that produced no figures, e.g. a forked worker that died or was killed. */
    public static RepetitionResult failed(int repetition, Transport transport, int eventLoops, Failure failure) {
        return new RepetitionResult(repetition, false, null, failure, transport, null, null, null, null, false,
                eventLoops, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
                null, null, null, null, null, List.of(), List.of(), null, null, null);
    }
}
