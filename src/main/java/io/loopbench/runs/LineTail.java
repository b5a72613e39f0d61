package io.loopbench.runs;

import java.util.ArrayDeque;

/**
 * The last {@code limit} characters of a stream's lines (whole lines dropped from the front, which its text then
 * says). Thread-safe.
 */
final class LineTail {

    private final int limit;
    private final ArrayDeque<String> lines = new ArrayDeque<>();
    private long chars;
    private boolean dropped;

    LineTail(int limit) {
        this.limit = limit;
    }

    synchronized void add(String line) {
        lines.addLast(line);
        chars += line.length() + 1;
        while (chars > limit && !lines.isEmpty()) {
            chars -= lines.removeFirst().length() + 1;
            dropped = true;
        }
    }

    @Override
    public synchronized String toString() {
        StringBuilder b = new StringBuilder(dropped ? "[earlier output dropped]\n" : "");
        lines.forEach(l -> b.append(l).append('\n'));
        return b.toString();
    }
}
