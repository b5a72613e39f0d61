package io.loopbench.events;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;

/**
 * Bounds of the Server-Sent Event streams ({@code loopbench.events.*}, see {@link EventStreams}), validated at start.
 *
 * @param maxSubscribersPerRecord the most open streams of one run or matrix; one more is refused (429)
 * @param maxSubscribers          the most open streams of runs and matrices together; one more is refused (429)
 * @param timeout                 a stream ends after this long even if its record has not (a browser reconnects)
 * @param heartbeat               how often every stream gets an SSE comment, so that idle proxies keep it open and a
 *                                client that has gone is noticed
 * @param queueCapacity           events that may wait for one subscriber; a subscriber that falls this far behind is
 *                                dropped (its stream ends) rather than ever holding up the runner
 */
@ConfigurationProperties("loopbench.events")
@Validated
public record EventStreamsProperties(
        @Min(1) @Max(100_000) @DefaultValue("16") int maxSubscribersPerRecord,
        @Min(1) @Max(100_000) @DefaultValue("256") int maxSubscribers,
        @NotNull @DurationMin(seconds = 1) @DefaultValue("1h") Duration timeout,
        @NotNull @DurationMin(millis = 100) @DefaultValue("15s") Duration heartbeat,
        @Min(2) @Max(10_000) @DefaultValue("32") int queueCapacity) {

    public static final String PREFIX = "loopbench.events";

    /** The defaults, as {@code application.properties} also states them. */
    public static EventStreamsProperties defaults() {
        return new EventStreamsProperties(16, 256, Duration.ofHours(1), Duration.ofSeconds(15), 32);
    }
}
