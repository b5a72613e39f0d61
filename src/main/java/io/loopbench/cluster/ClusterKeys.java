package io.loopbench.cluster;

import javax.crypto.Mac;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;

/**
 * The keys derived from the cluster's shared secret, one per use (HMAC-SHA256 of a fixed label under the secret), so
 * that the authentication key and the encryption key are never the same bytes. Immutable; any thread.
 */
final class ClusterKeys {

    static final String MAC_ALGORITHM = "HmacSHA256";

    private ClusterKeys() {
    }

    /** The key that authenticates joins and the coordinator's answers ({@link HmacToken}). */
    static SecretKey authentication(String secret) {
        return new SecretKeySpec(derive(secret, "loopbench cluster authentication v1"), MAC_ALGORITHM);
    }

    /** The AES-256 key that encrypts the members' messages when {@code encrypt} is on. */
    static SecretKey encryption(String secret) {
        return new SecretKeySpec(derive(secret, "loopbench cluster encryption v1"), "AES");
    }

    private static byte[] derive(String secret, String label) {
        try {
            Mac mac = Mac.getInstance(MAC_ALGORITHM);
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), MAC_ALGORITHM));
            return mac.doFinal(label.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK lacks " + MAC_ALGORITHM, e);
        }
    }
}
