package io.loopbench.engine.process;

/**
 * Resident memory of the process at the end of the measured phase ({@code VmRSS}) and its peak since the
 * process started ({@code VmHWM}), from /proc/self/status; {@code null} where that file does not exist. The peak
 * covers everything the process did before, so it describes one repetition only in a fresh process.
 *
 * @param rssBytes     VmRSS at the end of the measured phase, bytes
 * @param peakRssBytes VmHWM, the process's peak resident memory so far, bytes
 */
public record MemoryUsage(Long rssBytes, Long peakRssBytes) {
}
