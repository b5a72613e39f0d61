package io.loopbench.engine.spec;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** Loopback address family: {@code ipv4} is 127.0.0.1, {@code ipv6} is ::1. */
public enum AddressFamily implements Labeled {
    IPV4, IPV6;

    /** This family's loopback address. */
    public InetAddress loopback() throws UnknownHostException {
        return InetAddress.getByName(this == IPV4 ? "127.0.0.1" : "::1");
    }
}
