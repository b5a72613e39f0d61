package io.loopbench.engine.protocol;

/**
 * The HTTP/2 settings an h2c or h2 pair's ends announced, and the connection window they widened to: what decides
 * how many streams a connection carries at once and how many bytes may be in flight. Immutable.
 *
 * @param maxConcurrentStreams  SETTINGS_MAX_CONCURRENT_STREAMS
 * @param initialWindowSize     SETTINGS_INITIAL_WINDOW_SIZE: each stream's flow-control window, bytes
 * @param connectionWindowSize  the connection's flow-control window after its first WINDOW_UPDATE, bytes
 * @param maxFrameSize          SETTINGS_MAX_FRAME_SIZE: the largest DATA frame, bytes
 */
public record Http2Setup(long maxConcurrentStreams, int initialWindowSize, int connectionWindowSize,
                         int maxFrameSize) {
}
