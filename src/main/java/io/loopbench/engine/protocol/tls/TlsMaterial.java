package io.loopbench.engine.protocol.tls;

import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;

/**
 * A TLS server's certificate chain and key, and the CA its clients trust. Immutable.
 *
 * @param chain the server's certificate first, then any intermediates
 * @param key   the server certificate's private key
 * @param ca    the certificate a client trusts
 */
public record TlsMaterial(List<X509Certificate> chain, PrivateKey key, X509Certificate ca) {

    /** The file names in a certificates directory. */
    public static final String SERVER_PEM = "server.pem";
    public static final String SERVER_KEY_PEM = "server-key.pem";
    public static final String CA_PEM = "ca.pem";

    public TlsMaterial {
        chain = List.copyOf(chain);
    }

    /** The user's material from {@code directory}, or the throw-away material (directory null). */
    public static TlsMaterial of(String directory) {
        return directory == null ? Generated.MATERIAL : load(Path.of(directory));
    }

    /**
     * Reads {@code server.pem}, {@code server-key.pem} (PKCS#8) and {@code ca.pem}, and checks that the key signs what
     * the server certificate's public key verifies.
     *
     * @throws IllegalArgumentException naming the file that is missing, unreadable or does not match
     */
    public static TlsMaterial load(Path directory) {
        List<X509Certificate> chain = certificates(directory.resolve(SERVER_PEM));
        List<X509Certificate> cas = certificates(directory.resolve(CA_PEM));
        Path keyFile = directory.resolve(SERVER_KEY_PEM);
        PrivateKey key = privateKey(keyFile);
        if (!matches(key, chain.getFirst().getPublicKey())) {
            throw new IllegalArgumentException(keyFile + ": the key does not match the certificate in " + SERVER_PEM);
        }
        return new TlsMaterial(chain, key, cas.getFirst());
    }

    /**
     * A fresh CA and a server certificate it signed, with {@code addresses} as the server's SAN IP addresses (EC
     * P-256, valid from a day ago for a year).
     */
    public static TlsMaterial generate(InetAddress... addresses) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(256);
            KeyPair caKeys = generator.generateKeyPair();
            KeyPair serverKeys = generator.generateKeyPair();
            X500Name caName = new X500Name("CN=loopbench throw-away CA");
            X509v3CertificateBuilder ca = builder(caName, caName, caKeys.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            GeneralName[] sans = new GeneralName[addresses.length];
            for (int i = 0; i < addresses.length; i++) {
                sans[i] = new GeneralName(GeneralName.iPAddress, addresses[i].getHostAddress());
            }
            X509v3CertificateBuilder server = builder(caName, new X500Name("CN=loopbench echo server"),
                    serverKeys.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
                    .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth))
                    .addExtension(Extension.subjectAlternativeName, false, new GeneralNames(sans));
            X509Certificate caCert = signed(ca, caKeys.getPrivate());
            return new TlsMaterial(List.of(signed(server, caKeys.getPrivate())), serverKeys.getPrivate(), caCert);
        } catch (GeneralSecurityException | IOException | OperatorCreationException e) {
            throw new IllegalStateException("cannot make the throw-away TLS certificates: " + e, e);
        }
    }

    private static X509v3CertificateBuilder builder(X500Name issuer, X500Name subject, PublicKey key) {
        Instant now = Instant.now();
        return new JcaX509v3CertificateBuilder(issuer, new BigInteger(64, new SecureRandom()),
                Date.from(now.minus(Duration.ofDays(1))), Date.from(now.plus(Duration.ofDays(365))), subject, key);
    }

    private static X509Certificate signed(X509v3CertificateBuilder b, PrivateKey issuerKey)
            throws GeneralSecurityException, OperatorCreationException {
        return new JcaX509CertificateConverter().getCertificate(
                b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKey)));
    }

    private static List<X509Certificate> certificates(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            List<X509Certificate> certs = CertificateFactory.getInstance("X.509").generateCertificates(in).stream()
                    .map(X509Certificate.class::cast).toList();
            if (certs.isEmpty()) {
                throw new IllegalArgumentException(file + ": no PEM certificate in it");
            }
            return certs;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException(file + ": cannot read a PEM certificate: " + e.getMessage(), e);
        }
    }

    private static PrivateKey privateKey(Path file) {
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.US_ASCII);
             PEMParser pem = new PEMParser(in)) {
            if (pem.readObject() instanceof PrivateKeyInfo info) {
                return new JcaPEMKeyConverter().getPrivateKey(info);
            }
            throw new IllegalArgumentException(file + ": no PKCS#8 PEM private key (BEGIN PRIVATE KEY) in it");
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot read a PKCS#8 PEM private key: " + e.getMessage(), e);
        }
    }

    /** Whether the key's signature verifies with the certificate's public key. */
    private static boolean matches(PrivateKey key, PublicKey certificateKey) {
        if (!key.getAlgorithm().equals(certificateKey.getAlgorithm())) {
            return false;
        }
        String algorithm = switch (key.getAlgorithm()) {
            case "EC" -> "SHA256withECDSA";
            case "RSA" -> "SHA256withRSA";
            default -> key.getAlgorithm(); // EdDSA, Ed25519, Ed448 name their own signature
        };
        try {
            byte[] probe = "loopbench".getBytes(StandardCharsets.US_ASCII);
            Signature sign = Signature.getInstance(algorithm);
            sign.initSign(key);
            sign.update(probe);
            byte[] signature = sign.sign();
            Signature verify = Signature.getInstance(algorithm);
            verify.initVerify(certificateKey);
            verify.update(probe);
            return verify.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    /** The throw-away material, made on first use, once per JVM (class initialisation is the lock). */
    private static final class Generated {
        static final TlsMaterial MATERIAL = generate(address(new byte[] {127, 0, 0, 1}),
                address(new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}));

        private static InetAddress address(byte[] bytes) {
            try {
                return InetAddress.getByAddress(bytes);
            } catch (java.net.UnknownHostException e) {
                throw new IllegalStateException(e); // only for a length other than 4 or 16
            }
        }
    }
}
