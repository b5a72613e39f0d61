package io.loopbench.runs;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.nio.file.Path;
import java.util.List;

/**
 * Settings of the run service ({@code loopbench.*}), validated at start.
 *
 * @param dataDirectory  where each run is stored as {@code <id>.json}
 * @param queueCapacity  runs that may wait; a full queue answers 503 with Retry-After
 * @param limits         the largest specs the service accepts
 * @param worker         how forked repetitions are started
 * @param network        where load may be sent beyond loopback
 */
@ConfigurationProperties("loopbench")
@Validated
public record RunsProperties(
        @NotNull @DefaultValue("./data") Path dataDirectory,
        @Min(1) @Max(100_000) @DefaultValue("100") int queueCapacity,
        @NotNull @Valid @DefaultValue Limits limits,
        @NotNull @Valid @DefaultValue Worker worker,
        @NotNull @Valid @DefaultValue Network network) {

    /**
     * @param maxSecondsPerRepetition the most warm-up + seconds one repetition may take (the warm-up counted at
     *                                its longest: warmupSeconds, or warmupMaxSeconds with auto warm-up)
     * @param maxRepetitions          the most repetitions one run may have
     * @param maxClients              the most clients one run may have
     * @param maxMatrixSeconds        the longest estimated duration a matrix may have
     * @param maxRecommendationSeconds the largest budget a recommendation's race may have
     */
    public record Limits(
            @Positive @Max(7200) @DefaultValue("600") double maxSecondsPerRepetition,
            @Min(1) @Max(100) @DefaultValue("100") int maxRepetitions,
            @Min(1) @Max(1024) @DefaultValue("1024") int maxClients,
            @Positive @DefaultValue("14400") double maxMatrixSeconds,
            @Positive @DefaultValue("14400") double maxRecommendationSeconds) {
    }

    /**
     * @param allowedCidrs address ranges (e.g. {@code 10.0.0.0/8}) a run's {@code target} may be in besides
     *                     loopback; empty by default, because this API generates load
     */
    public record Network(@NotNull @DefaultValue({}) List<String> allowedCidrs) {
    }

    /**
     * @param jvmOptions   flags of each forked worker JVM (heap, GC); recorded in the worker's environment
     * @param graceSeconds a worker running longer than its warm-up at its longest (warmupSeconds, or
     *                     warmupMaxSeconds with auto warm-up) + seconds + this is killed
     * @param aotCache     whether workers start from an AOT cache of the classes the engine's workload loads (JDK 25+;
     *                     see {@link io.loopbench.worker.WorkerAotCache}), under the data directory's {@code worker-aot/}: trained by the
     *                     first forked repetition that finds none, it halves a worker's time to its first echo
     */
    public record Worker(
            @NotNull @DefaultValue({"-Xms32m", "-Xmx640m", "-XX:+UseSerialGC"}) List<String> jvmOptions,
            @Min(1) @Max(3600) @DefaultValue("45") int graceSeconds,
            @DefaultValue("true") boolean aotCache) {
    }
}
