package io.loopbench.cluster;

import org.jgroups.Address;
import org.jgroups.protocols.AUTH;
import org.jgroups.util.ByteArrayDataInputStream;
import org.jgroups.util.ByteArrayDataOutputStream;
import org.jgroups.util.UUID;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** What a join token proves, and each way one is refused (without a cluster: tokens written and read as on the wire). */
class HmacTokenTest {

    private static final String SECRET = "a-shared-secret-of-enough-length";

    private final Address joiner = UUID.randomUUID();

    /** A token as {@code sender} writes it and the receiver reads it. */
    private static HmacToken sent(String secret, String cluster, Address sender) throws Exception {
        HmacToken mine = new HmacToken(secret, cluster);
        mine.setAuth(new AUTH().setAddress(sender));
        ByteArrayDataOutputStream out = new ByteArrayDataOutputStream(mine.size());
        mine.writeTo(out);
        assertThat(out.position()).isEqualTo(mine.size());
        HmacToken received = new HmacToken();
        received.readFrom(new ByteArrayDataInputStream(out.buffer(), 0, out.position()));
        return received;
    }

    private final Address self = UUID.randomUUID();

    private HmacToken verifier() {
        HmacToken t = new HmacToken(SECRET, "bench");
        t.setAuth(new AUTH().setAddress(self));
        return t;
    }

    @Test
    void theRightSecretClusterAndSenderPassOnce() throws Exception {
        HmacToken verifier = verifier();
        HmacToken token = sent(SECRET, "bench", joiner);
        assertThat(verifier.refusal(token, joiner, System.currentTimeMillis())).isNull();
        assertThat(verifier.refusal(token, joiner, System.currentTimeMillis())).contains("replayed");
        // a fresh token from the same member passes: each one written has its own time and nonce
        assertThat(verifier.refusal(sent(SECRET, "bench", joiner), joiner, System.currentTimeMillis())).isNull();
    }

    @Test
    void aWrongSecretAnotherClusterOrAnotherSendersTokenIsRefused() throws Exception {
        HmacToken verifier = verifier();
        long now = System.currentTimeMillis();
        assertThat(verifier.refusal(sent("another-secret-of-enough-length", "bench", joiner), joiner, now))
                .contains("wrong secret");
        assertThat(verifier.refusal(sent(SECRET, "other-bench", joiner), joiner, now)).contains("wrong secret");
        assertThat(verifier.refusal(sent(SECRET, "bench", joiner), UUID.randomUUID(), now))
                .contains("another member");
        assertThat(verifier.refusal(null, joiner, now)).contains("no loopbench token");
    }

    @Test
    void aMembersOwnRequestDeliveredLocallyPassesAsItsConfiguredTokenFromItsOwnAddressOnly() {
        HmacToken verifier = verifier();
        // unwritten (a message to itself never leaves the JVM): the configured instance itself arrives
        assertThat(verifier.refusal(verifier, self, System.currentTimeMillis())).isNull();
        assertThat(verifier.refusal(verifier, joiner, System.currentTimeMillis())).contains("no loopbench token");
        assertThat(verifier.refusal(new HmacToken(SECRET, "bench"), self,
                System.currentTimeMillis())).contains("no loopbench token");
    }

    @Test
    void aTokenFromTooFarInThePastOrFutureIsRefused() throws Exception {
        HmacToken verifier = verifier();
        long now = System.currentTimeMillis();
        assertThat(verifier.refusal(sent(SECRET, "bench", joiner), joiner, now + HmacToken.MAX_AGE_MILLIS + 5_000))
                .contains("clocks");
        assertThat(verifier.refusal(sent(SECRET, "bench", joiner), joiner, now - HmacToken.MAX_AGE_MILLIS - 5_000))
                .contains("clocks");
        assertThat(verifier.refusal(sent(SECRET, "bench", joiner), joiner, now + HmacToken.MAX_AGE_MILLIS - 5_000))
                .isNull();
    }
}
