package io.loopbench.cluster;

import org.jgroups.Address;
import org.jgroups.Message;
import org.jgroups.auth.AuthToken;
import org.jgroups.util.ByteArrayDataOutputStream;
import org.jgroups.util.Util;

import javax.crypto.Mac;
import javax.crypto.SecretKey;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.Map;

/**
 * JGroups' {@code AUTH} token for a shared secret, which JGroups 5 no longer has (its {@code SimpleToken} and
 * {@code MD5Token}, which sent the secret or its hash, were removed as replayable). Each join or merge request, and
 * each answer of the coordinator to one ({@code AUTH} authenticates both ways), carries a fresh token: the time it
 * was written, a random nonce, and an HMAC-SHA256 under a key derived from the secret over the cluster's name, the
 * sender's address, the time and the nonce. The secret never travels; a token is refused when its MAC does not match
 * (a wrong secret, another cluster, or a token copied from another sender), when it is more than
 * {@link #MAX_AGE_MILLIS} old or ahead (the hosts' clocks must agree that well), or when its nonce was seen before
 * (a replay).
 *
 * <p>Threads: JGroups writes and checks tokens on its own threads; the configured instance's nonce memory is guarded
 * by its lock, everything else is immutable or confined to one message.
 */
public final class HmacToken extends AuthToken {

    static final long MAX_AGE_MILLIS = 5 * 60_000;
    private static final byte VERSION = 1;
    private static final int NONCE_BYTES = 16;
    private static final int MAC_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();

    // Configured instance: the key and the cluster it is for. Received instance: null, only the wire fields are set.
    private final SecretKey key;
    private final String cluster;
    private final Map<String, Long> seenNonces = new HashMap<>();

    // Wire fields of a received token.
    private long writtenAtMillis;
    private byte[] nonce;
    private byte[] mac;

    /** A received token, filled in by {@link #readFrom}; JGroups creates it by reflection. */
    public HmacToken() {
        this(null, null);
    }

    /** The token of a member holding the secret, for the cluster of this name. */
    HmacToken(String secret, String cluster) {
        this.key = secret == null ? null : ClusterKeys.authentication(secret);
        this.cluster = cluster;
    }

    @Override
    public String getName() {
        return HmacToken.class.getName();
    }

    @Override
    public int size() {
        return 1 + Long.BYTES + NONCE_BYTES + MAC_BYTES;
    }

    /** Writes a fresh token for this member's address: a new time and nonce each time a message is written. */
    @Override
    public void writeTo(DataOutput out) throws IOException {
        if (key == null) {
            throw new IllegalStateException("a received token is never sent on");
        }
        long now = System.currentTimeMillis();
        byte[] n = new byte[NONCE_BYTES];
        RANDOM.nextBytes(n);
        out.writeByte(VERSION);
        out.writeLong(now);
        out.write(n);
        out.write(mac(auth.getAddress(), now, n));
    }

    @Override
    public void readFrom(DataInput in) throws IOException {
        byte version = in.readByte();
        if (version != VERSION) {
            throw new IOException("token version " + version + ", this build reads " + VERSION);
        }
        writtenAtMillis = in.readLong();
        nonce = new byte[NONCE_BYTES];
        in.readFully(nonce);
        mac = new byte[MAC_BYTES];
        in.readFully(mac);
    }

    @Override
    public boolean authenticate(AuthToken token, Message msg) {
        String refusal = refusal(token, msg.getSrc(), System.currentTimeMillis());
        if (refusal != null) {
            log.warn("%s: refused %s: %s", auth.getAddress(), msg.getSrc(), refusal);
        }
        return refusal == null;
    }

    /** Why this received token does not authenticate {@code sender}, or null when it does. */
    String refusal(AuthToken token, Address sender, long nowMillis) {
        if (token == this && sender != null && sender.equals(auth.getAddress())) {
            // This member's own request, delivered to itself without leaving the JVM, so never written: a merge
            // leader's merge request to itself.
            return null;
        }
        if (!(token instanceof HmacToken t) || t.mac == null) {
            return "no loopbench token (another kind of JGroups member?)";
        }
        if (!MessageDigest.isEqual(mac(sender, t.writtenAtMillis, t.nonce), t.mac)) {
            return "wrong secret, another cluster name, or a token written by another member";
        }
        long age = nowMillis - t.writtenAtMillis;
        if (Math.abs(age) > MAX_AGE_MILLIS) {
            return "token written " + age / 1000 + " s away from this host's clock (at most "
                    + MAX_AGE_MILLIS / 1000 + " s: are the hosts' clocks set?)";
        }
        synchronized (seenNonces) {
            for (Iterator<Long> it = seenNonces.values().iterator(); it.hasNext(); ) {
                if (nowMillis - it.next() > 2 * MAX_AGE_MILLIS) {
                    it.remove();
                }
            }
            if (seenNonces.putIfAbsent(HexFormat.of().formatHex(t.nonce), nowMillis) != null) {
                return "token seen before (replayed)";
            }
        }
        return null;
    }

    private byte[] mac(Address sender, long writtenAt, byte[] n) {
        try {
            ByteArrayDataOutputStream data = new ByteArrayDataOutputStream(64);
            data.writeUTF(cluster);
            Util.writeAddress(sender, data);
            data.writeLong(writtenAt);
            data.write(n);
            Mac m = Mac.getInstance(ClusterKeys.MAC_ALGORITHM);
            m.init(key);
            m.update(data.buffer(), 0, data.position());
            return m.doFinal();
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot compute the token's MAC", e);
        }
    }

    @Override
    public String toString() {
        return "HmacToken" + (key == null ? "(received)" : "(" + cluster + ")");
    }
}
