package io.loopbench.reports;

import io.loopbench.engine.spec.GrpcMethod;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.verdicts.VerdictRule;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a protocol costs, as arknet's protocol pages state it: among cases that differ only by protocol (same message
 * size, load, work, execution and IO profile), each protocol's figures against TCP's, and each TLS protocol's against
 * the same protocol without TLS — tcps ÷ tcp, wss ÷ websocket, https ÷ http: the TLS cost. Ratios matched
 * repetition by repetition, with their intervals and decisions ({@link Comparisons}, alternated: the cases are one
 * matrix's), the costs of one profile decided as one family, with both sides' warnings. A protocol's own
 * options (TLS provider, datagrams per read) make variants of it, each compared on its own. Stateless.
 */
public final class ProtocolCosts {

    /** Each TLS protocol and the protocol it secures. */
    private static final Map<Protocol, Protocol> WITHOUT_TLS = Map.of(
            Protocol.TCPS, Protocol.TCP, Protocol.WSS, Protocol.WEBSOCKET, Protocol.HTTPS, Protocol.HTTP,
            Protocol.H2, Protocol.H2C, Protocol.GRPCS, Protocol.GRPC);

    private ProtocolCosts() {
    }

    /**
     * One protocol against a baseline protocol in one profile.
     *
     * @param profile    the cases' shared conditions and IO profile ("1024 B / 16 clients × window 16 / … / shared 1")
     * @param protocol   the protocol compared, with its own options ("tcps / TLS openssl")
     * @param baseline   the protocol it is compared with: tcp, or the same protocol without TLS
     * @param tlsCost    whether this is a TLS protocol against the same protocol without TLS
     * @param comparison the ratios and verdict; null when either side failed
     * @param failure    why there is no ratio (which side failed); null when there is one
     */
    public record ProtocolCost(String profile, String protocol, String baseline, boolean tlsCost,
                               Comparisons.CaseComparison comparison, String failure) {
    }

    /** Every protocol's cost, in the cases' order; empty where no profile has two protocols to compare. */
    public static List<ProtocolCost> of(List<CaseResult> cases, VerdictRule rule) {
        Map<String, List<CaseResult>> byProfile = new LinkedHashMap<>();
        for (CaseResult c : cases) {
            byProfile.computeIfAbsent(c.protocolPairKey(), k -> new ArrayList<>()).add(c);
        }
        List<ProtocolCost> out = new ArrayList<>();
        for (List<CaseResult> profile : byProfile.values()) {
            List<Pending> costs = new ArrayList<>();
            Optional<CaseResult> tcp = only(profile, Protocol.TCP, GrpcMethod.UNARY);
            for (CaseResult c : profile) {
                Protocol p = c.spec().protocol();
                if (p != Protocol.TCP) {
                    tcp.ifPresent(t -> costs.add(new Pending(t, c, p == Protocol.TCPS)));
                }
                Protocol plain = WITHOUT_TLS.get(p);
                if (plain != null && plain != Protocol.TCP) {
                    only(profile, plain, c.spec().grpcMethod()).ifPresent(b -> costs.add(new Pending(b, c, true)));
                }
            }
            out.addAll(decided(costs, rule));
        }
        return out;
    }

    /**
     * The profile's case of a protocol without options of its own (tcp, websocket, http, h2c; grpc by its method):
     * there is one or none.
     */
    private static Optional<CaseResult> only(List<CaseResult> profile, Protocol protocol, GrpcMethod method) {
        return profile.stream().filter(c -> c.spec().protocol() == protocol && c.spec().grpcMethod() == method)
                .findFirst();
    }

    /** A protocol against its baseline protocol, before the profile's family decides it. */
    private record Pending(CaseResult baseline, CaseResult c, boolean tlsCost) {

        boolean ok() {
            return baseline.ok() && c.ok();
        }
    }

    /** One profile's costs, their comparisons decided as one family. */
    private static List<ProtocolCost> decided(List<Pending> costs, VerdictRule rule) {
        List<Comparisons.CaseComparison> decided = Comparisons.decide(costs.stream().filter(Pending::ok)
                .map(p -> new CaseResult[] {p.baseline(), p.c()}).toList(), true, rule);
        List<ProtocolCost> out = new ArrayList<>();
        int next = 0;
        for (Pending p : costs) {
            out.add(new ProtocolCost(p.c().protocolPairTitle(), p.c().protocolTitle(),
                    p.baseline().spec().protocol().label(), p.tlsCost(), p.ok() ? decided.get(next++) : null,
                    p.ok() ? null : (Comparisons.failure("baseline", p.baseline())
                            + Comparisons.failure("candidate", p.c())).strip()));
        }
        return out;
    }
}
