package io.loopbench.engine.protocol.tls;

import io.loopbench.engine.protocol.BlockingServer;
import io.loopbench.engine.protocol.BlockingSocket;
import io.loopbench.engine.protocol.BlockingProtocol;
import io.loopbench.engine.protocol.TlsSession;
import io.loopbench.engine.spec.TlsProvider;
import io.loopbench.engine.protocol.tcp.Tcp;
import io.loopbench.engine.protocol.tcp.TcpListener;
import io.loopbench.engine.protocol.tcp.TcpSocket;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.ReferenceCountedOpenSslEngine;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.codec.http2.Http2SecurityUtil;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SupportedCipherSuiteFilter;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import reactor.netty.Connection;
import reactor.netty.DisposableChannel;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.server.HttpServer;
import reactor.netty.tcp.TcpClient;
import reactor.netty.tcp.TcpServer;
import reactor.netty.transport.ClientTransport;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * TLS over TCP ({@code tcps}): TCP's byte stream and options, encrypted. The server presents {@link TlsMaterial}'s
 * chain; the client trusts its CA only, verifies the chain and the server's IP against the certificate (endpoint
 * identification {@code HTTPS}), offers TLS 1.3 and 1.2, and shows no certificate of its own. Netty's ends use the
 * chosen provider; blocking sockets the JDK's.
 *
 * <p>Threads: the TLS contexts are built once, on first use, by the thread that opens the pair (a race would only
 * build them twice); the negotiated session is recorded once, by whichever client's handshake completes first.
 */
public final class Tls implements BlockingProtocol {

    /** The versions both ends offer: TLS 1.2 at least. */
    private static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

    private final String certsDirectory;
    private final SslProvider provider;
    /** The application protocol both ends offer by ALPN ({@code h2}); null for none. */
    private final String alpn;
    private final AtomicReference<TlsSession> session = new AtomicReference<>();
    private volatile Contexts contexts;

    /**
     * @param certsDirectory the user's {@code server.pem}, {@code server-key.pem} and {@code ca.pem}; null: the
     *                       throw-away material
     * @param provider       {@link SslProvider#JDK} or {@link SslProvider#OPENSSL} for Netty's ends
     */
    public Tls(String certsDirectory, SslProvider provider) {
        this(certsDirectory, provider, null);
    }

    /**
     * TLS whose handshake also agrees on an application protocol by ALPN, as HTTP/2 over TLS needs: both ends offer
     * only {@code alpn}.
     */
    public Tls(String certsDirectory, SslProvider provider, String alpn) {
        this.certsDirectory = certsDirectory;
        this.provider = provider;
        this.alpn = alpn;
    }

    /** Why Netty's OpenSSL provider cannot load here; null when it can. */
    public static String openSslUnavailable() {
        return OpenSsl.isAvailable() ? null : String.valueOf(OpenSsl.unavailabilityCause());
    }

    /**
     * The provider Netty's ends use: {@code auto} takes Netty's own rule ({@link SslContext#defaultServerProvider()}:
     * OpenSSL where it loads, else the JDK's), so that a run pays what a Reactor Netty service with this class path
     * would.
     */
    public static SslProvider provider(TlsProvider requested) {
        return switch (requested) {
            case AUTO -> SslContext.defaultServerProvider() == SslProvider.JDK ? SslProvider.JDK : SslProvider.OPENSSL;
            case JDK -> SslProvider.JDK;
            case OPENSSL -> SslProvider.OPENSSL;
        };
    }

    /** Each concrete provider's label and {@code null} when it loads, or why it does not: what {@code auto} chose by. */
    public static Map<String, String> availability() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(TlsProvider.JDK.label(), null);
        m.put(TlsProvider.OPENSSL.label(), openSslUnavailable());
        return m;
    }

    @Override
    public boolean stream() {
        return true;
    }

    @Override
    public TlsSession tlsSession() {
        return session.get();
    }

    @Override
    public DisposableChannel bind(EventLoopGroup loops, InetSocketAddress address, int payloadBytes,
                                  ChannelGroup accepted, Consumer<Connection> ends) {
        return secure(Tcp.server(loops, address, accepted))
                .doOnConnection(ends)
                .bindNow(SETUP_TIMEOUT);
    }

    @Override
    public Connection connect(EventLoopGroup loops, InetSocketAddress server, int payloadBytes,
                              Consumer<Connection> attach) {
        // Reactor Netty hands the connection over once the handshake is done (a failed one fails connectNow).
        return secure(Tcp.client(loops, server))
                .doOnConnected(attach)
                .connectNow(SETUP_TIMEOUT);
    }

    /**
     * {@code server} with {@code tls}'s TLS, or as it is where there is none: a protocol that runs with or without TLS
     * (websocket and wss, http and https, h2c and h2) binds through these four.
     */
    public static TcpServer secure(Tls tls, TcpServer server) {
        return tls == null ? server : tls.secure(server);
    }

    /** The same for Reactor Netty's HttpServer. */
    public static HttpServer secure(Tls tls, HttpServer server) {
        return tls == null ? server : tls.secure(server);
    }

    /**
     * The same for a client: Reactor Netty hands its connection over once the handshake (ALPN included, for h2) is
     * done, and a failed one fails the connect.
     */
    public static TcpClient secure(Tls tls, TcpClient client) {
        return tls == null ? client : tls.secure(client);
    }

    /** The same for Reactor Netty's HttpClient. */
    public static HttpClient secure(Tls tls, HttpClient client) {
        return tls == null ? client : tls.secure(client);
    }

    /** A server with this protocol's TLS on every accepted connection: for a protocol layered on TLS (wss). */
    public TcpServer secure(TcpServer server) {
        SslContext context = contexts().server;
        return server.secure(ssl -> ssl.sslContext(context));
    }

    /** The same for Reactor Netty's HttpServer (wss on the reactive execution). */
    public HttpServer secure(HttpServer server) {
        SslContext context = contexts().server;
        return server.secure(ssl -> ssl.sslContext(context));
    }

    /**
     * Netty's server and client contexts, for a library that builds its own TLS handlers from them (grpc-java's
     * negotiators), with {@link #recordHandshake} to record its clients' sessions.
     */
    public SslContext serverContext() {
        return contexts().server;
    }

    public SslContext clientContext() {
        return contexts().client;
    }

    /** Records the session of a client's handshake once it completes, if it is the first to. */
    public void recordHandshake(SslHandler tls) {
        tls.handshakeFuture().addListener(f -> {
            if (f.isSuccess()) {
                record((tls.engine() instanceof ReferenceCountedOpenSslEngine ? TlsProvider.OPENSSL
                        : TlsProvider.JDK).label(), tls.engine().getSession());
            }
        });
    }

    /**
     * A client with this protocol's TLS, recording the first handshake's session: for a protocol layered on TLS
     * (wss). Its SslHandler comes first in the pipeline; what a caller adds at channel init comes after it.
     */
    public TcpClient secure(TcpClient client) {
        SslContext context = contexts().client;
        return recording(client.secure(ssl -> ssl.sslContext(context)));
    }

    /** The same for Reactor Netty's HttpClient (wss on the reactive execution); its URI must say {@code wss}. */
    public HttpClient secure(HttpClient client) {
        SslContext context = contexts().client;
        return recording(client.secure(ssl -> ssl.sslContext(context)));
    }

    /**
     * Records the session of the first handshake a client of this protocol completes, its provider named by the engine
     * that did it, so that the record shows what ran rather than what was asked.
     */
    private <C extends ClientTransport<C, ?>> C recording(C client) {
        return client.doOnConnected(c -> recordHandshake(c.channel().pipeline().get(SslHandler.class)));
    }

    @Override
    public BlockingServer bind(InetSocketAddress address) throws IOException {
        SSLServerSocket s = (SSLServerSocket) contexts().jdk.getServerSocketFactory().createServerSocket();
        s.setEnabledProtocols(PROTOCOLS);
        s.bind(address);
        return new TcpListener(s);
    }

    @Override
    public BlockingSocket connect(SocketAddress server) throws IOException {
        InetSocketAddress to = (InetSocketAddress) server;
        Socket plain = Tcp.socket(to);
        // Layered with the address as given, so that the identity checked is the IP connected to.
        SSLSocket s = (SSLSocket) contexts().jdk.getSocketFactory().createSocket(plain, to.getHostString(),
                to.getPort(), true);
        SSLParameters parameters = s.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        parameters.setProtocols(PROTOCOLS);
        s.setSSLParameters(parameters);
        try {
            s.setSoTimeout((int) SETUP_TIMEOUT.toMillis());
            s.startHandshake(); // here, so that a refused certificate fails the set-up, not the first echo
            s.setSoTimeout(0);
        } catch (IOException e) {
            BlockingSocket.closeQuietly(s);
            throw e;
        }
        record(TlsProvider.JDK.label(), s.getSession());
        return new TcpSocket(s);
    }

    private void record(String label, SSLSession s) {
        session.compareAndSet(null, new TlsSession(label, s.getProtocol(), s.getCipherSuite()));
    }

    private Contexts contexts() {
        Contexts c = contexts;
        if (c == null) {
            c = new Contexts(TlsMaterial.of(certsDirectory), provider, alpn);
            contexts = c;
        }
        return c;
    }

    /** Netty's server and client contexts for the provider, and the JDK's for blocking sockets. Immutable. */
    private static final class Contexts {
        final SslContext server;
        final SslContext client;
        final SSLContext jdk;

        Contexts(TlsMaterial m, SslProvider provider, String alpn) {
            try {
                server = negotiating(SslContextBuilder.forServer(m.key(), m.chain()).sslProvider(provider)
                        .protocols(PROTOCOLS).clientAuth(ClientAuth.NONE), alpn).build();
                client = negotiating(SslContextBuilder.forClient().sslProvider(provider).protocols(PROTOCOLS)
                        .trustManager(m.ca()).endpointIdentificationAlgorithm("HTTPS"), alpn).build();
                jdk = jdkContext(m);
            } catch (GeneralSecurityException | IOException e) {
                throw new IllegalStateException("cannot build the TLS contexts: " + e, e);
            }
        }

        /**
         * With an application protocol: ALPN offering only it (a server that selects none is accepted, as OpenSSL
         * allows no other choice; HTTP/2's first frames then fail against it), and HTTP/2's cipher suites (RFC 7540's
         * blocklist left out, as Netty's Http2SecurityUtil lists them).
         */
        private static SslContextBuilder negotiating(SslContextBuilder b, String alpn) {
            if (alpn == null) {
                return b;
            }
            return b.ciphers(Http2SecurityUtil.CIPHERS, SupportedCipherSuiteFilter.INSTANCE)
                    .applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                            ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                            ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT, alpn));
        }

        private static SSLContext jdkContext(TlsMaterial m) throws GeneralSecurityException, IOException {
            char[] password = new char[0]; // an in-memory key store's, never written
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(null, null);
            keys.setKeyEntry("server", m.key(), password, m.chain().toArray(X509Certificate[]::new));
            KeyManagerFactory km = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            km.init(keys, password);
            KeyStore trusted = KeyStore.getInstance("PKCS12");
            trusted.load(null, null);
            trusted.setCertificateEntry("ca", m.ca());
            TrustManagerFactory tm = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tm.init(trusted);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(km.getKeyManagers(), tm.getTrustManagers(), null);
            return context;
        }
    }
}
