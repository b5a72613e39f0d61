package io.loopbench.engine;

/** Loopback address family: {@code ipv4} is 127.0.0.1, {@code ipv6} is ::1. */
public enum AddressFamily implements Labeled {
    IPV4, IPV6
}
