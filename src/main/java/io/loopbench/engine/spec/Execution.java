package io.loopbench.engine.spec;

import java.util.Locale;

/**
 * How both ends of the echo pair are programmed: {@code netty} (handlers on the run's event loops),
 * {@code reactive} (the same loops, each end one Reactor Netty receive and one long-lived send per connection) or
 * {@code virtual-threads} (blocking JDK sockets, one virtual thread per connection end, on {@code ioThreads}
 * carrier threads).
 */
public enum Execution implements Labeled {
    NETTY, REACTIVE, VIRTUAL_THREADS;

    @Override
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
