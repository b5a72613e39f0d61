package io.loopbench.engine;

import io.loopbench.engine.process.Environment;
import io.loopbench.engine.protocol.tls.Tls;
import io.loopbench.engine.protocol.tls.TlsMaterial;
import io.loopbench.engine.spec.Execution;
import io.loopbench.engine.spec.IoModel;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.TlsProvider;
import io.loopbench.engine.spec.Violation;
import io.loopbench.engine.spec.WindowMode;
import io.netty.handler.ssl.OpenSsl;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.Writer;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.loopbench.engine.EngineTestSupport.brief;
import static io.loopbench.engine.EngineTestSupport.quick;
import static org.assertj.core.api.Assertions.assertThat;

/** tcps: every message echoed and validated through TLS, with either provider and either certificate source. */
public class TlsEchoTest {

    static List<Arguments> layouts() {
        List<Arguments> cases = new ArrayList<>();
        for (Execution e : List.of(Execution.NETTY, Execution.REACTIVE)) {
            for (IoModel m : IoModel.values()) {
                for (WindowMode w : WindowMode.values()) {
                    cases.add(Arguments.of(e, m, w));
                }
            }
        }
        cases.add(Arguments.of(Execution.VIRTUAL_THREADS, IoModel.SHARED, WindowMode.SLIDING));
        cases.add(Arguments.of(Execution.VIRTUAL_THREADS, IoModel.SHARED, WindowMode.BATCH));
        return cases;
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("layouts")
    void echoesAndValidatesEveryMessage(Execution execution, IoModel model, WindowMode mode) {
        RunSpec spec = brief(quick(execution)).protocol(Protocol.TCPS).ioModel(model)
                .ioThreads(model == IoModel.SHARDED ? 2 : quick(execution).build().ioThreads()).windowMode(mode).build();

        RepetitionResult r = EngineTestSupport.validated(spec);

        assertThat(r.setup().tcpNoDelay()).isTrue();
        // the default provider: Netty's rule on Netty's ends, the JDK's own sockets under virtual threads
        assertThat(r.setup().tls().provider()).isEqualTo(execution == Execution.VIRTUAL_THREADS ? "jdk" : nettysRule());
        assertThat(r.setup().tls().protocol()).isIn("TLSv1.3", "TLSv1.2");
        assertThat(r.setup().tls().cipherSuite()).startsWith("TLS_");
    }

    /** What Netty's own check says a Reactor Netty service with this class path gets. */
    private static String nettysRule() {
        return OpenSsl.isAvailable() ? "openssl" : "jdk";
    }

    @Test
    void theDefaultProviderFollowsNettysAvailabilityCheckAndTheEnvironmentSaysWhy() {
        RunSpec spec = brief(quick()).protocol(Protocol.TCPS).build();
        assertThat(spec.tlsProvider()).isEqualTo(TlsProvider.AUTO);

        RepetitionResult r = EngineTestSupport.validated(spec);

        assertThat(r.setup().tls().provider()).isEqualTo(nettysRule());
        var why = Environment.current().tlsProviders();
        assertThat(why).containsEntry("jdk", null).containsKey("openssl");
        if (OpenSsl.isAvailable()) {
            assertThat(why.get("openssl")).isNull();
        } else {
            assertThat(why.get("openssl")).isEqualTo(String.valueOf(OpenSsl.unavailabilityCause()));
        }
    }

    @ParameterizedTest
    @EnumSource(value = TlsProvider.class, names = {"JDK", "OPENSSL"})
    void bothProvidersWhereTheyLoad(TlsProvider provider) {
        Assumptions.assumeTrue(provider == TlsProvider.JDK || Tls.openSslUnavailable() == null,
                () -> "Netty's OpenSSL provider does not load here: " + Tls.openSslUnavailable());
        RunSpec spec = brief(quick()).protocol(Protocol.TCPS).tlsProvider(provider).build();

        RepetitionResult r = EngineTestSupport.validated(spec);

        assertThat(r.setup().tls().provider()).isEqualTo(provider.label());
        assertThat(r.setup().tls().protocol()).isEqualTo("TLSv1.3");
    }

    @Test
    void theUsersOwnCertificatesFromADirectory(@TempDir Path dir) throws Exception {
        write(dir, TlsMaterial.generate(InetAddress.getByName("127.0.0.1")));

        RepetitionResult r = EngineTestSupport.validated(quick().protocol(Protocol.TCPS).certsDirectory(dir.toString()).build());

        assertThat(r.setup().tls()).isNotNull();
    }

    @ParameterizedTest
    @EnumSource(value = Execution.class, names = {"NETTY", "VIRTUAL_THREADS"})
    void aCertificateForAnotherHostIsRefusedByTheClient(Execution execution, @TempDir Path dir) throws Exception {
        write(dir, TlsMaterial.generate(InetAddress.getByName("10.9.9.9")));
        RunSpec spec = quick(execution).protocol(Protocol.TCPS).certsDirectory(dir.toString()).build();

        RepetitionResult r = EngineTestSupport.measure(spec).run().repetitions().getFirst();

        assertThat(r.ok()).isFalse();
        assertThat(r.error()).startsWith("set-up failed").containsIgnoringCase("certificate");
    }

    @Test
    void aMissingOrMismatchedFileIsAViolationNamingIt(@TempDir Path dir) throws Exception {
        RunSpec missing = RunSpec.builder().protocol(Protocol.TCPS).certsDirectory(dir.toString()).build();
        assertThat(missing.violations()).singleElement().satisfies(v -> {
            assertThat(v.field()).isEqualTo("certsDirectory");
            assertThat(v.toString()).contains("server.pem");
        });

        write(dir, TlsMaterial.generate(InetAddress.getByName("127.0.0.1")));
        TlsMaterial other = TlsMaterial.generate(InetAddress.getByName("127.0.0.1"));
        try (Writer w = Files.newBufferedWriter(dir.resolve(TlsMaterial.SERVER_KEY_PEM));
             JcaPEMWriter pem = new JcaPEMWriter(w)) {
            pem.writeObject(new JcaPKCS8Generator(other.key(), null));
        }
        assertThat(missing.violations()).singleElement().satisfies(v ->
                assertThat(v.toString()).contains("server-key.pem").contains("does not match"));
    }

    @Test
    void tlsFieldsGoWithTcpsOnly(@TempDir Path dir) {
        RunSpec tcp = RunSpec.builder().protocol(Protocol.TCP).certsDirectory(dir.toString())
                .tlsProvider(TlsProvider.OPENSSL).build();

        assertThat(tcp.violations()).extracting(Violation::field).containsExactly("certsDirectory", "tlsProvider");
    }

    /** A certificates directory as a user would hand it over: PEM chain, PKCS#8 key, CA. */
    public static void write(Path dir, TlsMaterial m) throws IOException {
        try (JcaPEMWriter pem = new JcaPEMWriter(Files.newBufferedWriter(dir.resolve(TlsMaterial.SERVER_PEM)))) {
            for (var c : m.chain()) {
                pem.writeObject(c);
            }
        }
        try (JcaPEMWriter pem = new JcaPEMWriter(Files.newBufferedWriter(dir.resolve(TlsMaterial.SERVER_KEY_PEM)))) {
            pem.writeObject(new JcaPKCS8Generator(m.key(), null));
        }
        try (JcaPEMWriter pem = new JcaPEMWriter(Files.newBufferedWriter(dir.resolve(TlsMaterial.CA_PEM)))) {
            pem.writeObject(m.ca());
        }
    }
}
