package io.loopbench.worker;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.loopbench.engine.MeasurementResult;
import io.loopbench.engine.timeline.TimelineInterval;

/**
 * One line of a worker's stdout, named by its {@code event} field: a phase that starts, a timeline interval that
 * closed, and last the result. Immutable.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "event")
@JsonSubTypes({@JsonSubTypes.Type(value = WorkerEvent.Phase.class, name = "phase"),
        @JsonSubTypes.Type(value = WorkerEvent.Interval.class, name = "interval"),
        @JsonSubTypes.Type(value = WorkerEvent.Result.class, name = "result")})
public sealed interface WorkerEvent {

    /**
     * A phase starts.
     *
     * @param repetition      the repetition's number in the worker's spec
     * @param phase           {@code warmup} or {@code measured}
     * @param seconds         its length, or an auto warm-up's cap
     * @param jvmUptimeMillis the worker JVM's age when it started
     */
    record Phase(int repetition, String phase, double seconds, long jvmUptimeMillis) implements WorkerEvent {
    }

    /** A timeline interval closed: the live timeline's next point. */
    record Interval(int repetition, TimelineInterval interval) implements WorkerEvent {
    }

    /** The measurement's result, timelines included: the worker's last event. */
    record Result(MeasurementResult result) implements WorkerEvent {
    }
}
