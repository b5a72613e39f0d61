package io.loopbench.runs;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * An address range written {@code address/prefix} (IPv4 or IPv6), e.g. {@code 10.0.0.0/8}. Immutable.
 *
 * @param network the range's first address, as bytes
 * @param prefix  how many leading bits must match
 */
record Cidr(byte[] network, int prefix) {

    /** Parses a range; only numeric addresses, so nothing is resolved. */
    static Cidr parse(String text) {
        int slash = text.indexOf('/');
        if (slash < 0 || !text.substring(0, slash).matches("[0-9a-fA-F:.]+")) {
            throw new IllegalArgumentException("'" + text + "' is not a CIDR range such as 10.0.0.0/8");
        }
        try {
            byte[] address = InetAddress.getByName(text.substring(0, slash)).getAddress();
            int prefix = Integer.parseInt(text.substring(slash + 1));
            if (prefix < 0 || prefix > address.length * 8) {
                throw new IllegalArgumentException("'" + text + "': the prefix must be 0 … " + address.length * 8);
            }
            return new Cidr(address, prefix);
        } catch (UnknownHostException | NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not a CIDR range such as 10.0.0.0/8", e);
        }
    }

    boolean contains(InetAddress address) {
        byte[] a = address.getAddress();
        if (a.length != network.length) {
            return false;
        }
        for (int bit = 0; bit < prefix; bit++) {
            int mask = 0x80 >>> (bit % 8);
            if ((a[bit / 8] & mask) != (network[bit / 8] & mask)) {
                return false;
            }
        }
        return true;
    }
}
