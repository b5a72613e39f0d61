package io.loopbench.reports;

import io.loopbench.engine.spec.Protocol;
import io.loopbench.verdicts.VerdictRule;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a protocol costs, as arknet's protocol pages state it: among cases that differ only by protocol (same message
 * size, load, work, execution and IO profile), each protocol's figures against TCP's, and each TLS protocol's against
 * the same protocol without TLS — tcps ÷ tcp, wss ÷ websocket, https ÷ http: the TLS cost. Ratios matched
 * repetition by repetition, with their intervals and decisions ({@link Comparisons}, alternated: the cases are one
 * matrix's), the costs of one profile decided as one family (Holm), with both sides' warnings. A protocol's own
 * options (TLS provider, datagrams per read) make variants of it, each compared on its own. Stateless.
 */
public final class ProtocolCosts {

    /** Each TLS protocol and the protocol it secures. */
    private static final Map<Protocol, Protocol> WITHOUT_TLS = Map.of(
            Protocol.TCPS, Protocol.TCP, Protocol.WSS, Protocol.WEBSOCKET, Protocol.HTTPS, Protocol.HTTP);

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
            List<ProtocolCost> costs = new ArrayList<>();
            Optional<CaseResult> tcp = only(profile, Protocol.TCP);
            for (CaseResult c : profile) {
                Protocol p = c.spec().protocol();
                if (p != Protocol.TCP) {
                    tcp.ifPresent(t -> costs.add(cost(t, c, p == Protocol.TCPS, rule)));
                }
                Protocol plain = WITHOUT_TLS.get(p);
                if (plain != null && plain != Protocol.TCP) {
                    only(profile, plain).ifPresent(b -> costs.add(cost(b, c, true, rule)));
                }
            }
            out.addAll(decided(costs, rule));
        }
        return out;
    }

    /** The profile's case of a protocol without options of its own (tcp, websocket, http): there is one or none. */
    private static Optional<CaseResult> only(List<CaseResult> profile, Protocol protocol) {
        return profile.stream().filter(c -> c.spec().protocol() == protocol).findFirst();
    }

    /** One profile's costs, their comparisons decided as one family. */
    private static List<ProtocolCost> decided(List<ProtocolCost> costs, VerdictRule rule) {
        List<Comparisons.CaseComparison> decided = Comparisons.family(costs.stream()
                .map(ProtocolCost::comparison).filter(Objects::nonNull).toList(), rule);
        List<ProtocolCost> out = new ArrayList<>();
        int next = 0;
        for (ProtocolCost c : costs) {
            out.add(c.comparison() == null ? c : new ProtocolCost(c.profile(), c.protocol(), c.baseline(),
                    c.tlsCost(), decided.get(next++), null));
        }
        return out;
    }

    private static ProtocolCost cost(CaseResult baseline, CaseResult c, boolean tlsCost, VerdictRule rule) {
        boolean ok = baseline.ok() && c.ok();
        return new ProtocolCost(c.protocolPairTitle(), c.protocolTitle(), baseline.spec().protocol().label(), tlsCost,
                ok ? Comparisons.compare(baseline, c, true, rule) : null,
                ok ? null : (Comparisons.failure("baseline", baseline) + Comparisons.failure("candidate", c)).strip());
    }
}
