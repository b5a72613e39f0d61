package io.loopbench.reports;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Cases that differ only by IO profile, compared with each other as arknet's report does: one chart, one table and
 * one key result per group; where the server's work runs (offload) is part of a case's IO profile. Groups keep the
 * order of their first case; cases within a group are ordered shared before sharded, fewer threads first, then by
 * offload.
 *
 * @param index 1-based position, used in chart names ({@code throughput-1.svg})
 */
public record CaseGroups(int index, String title, List<CaseResult> cases) {

    public static List<CaseGroups> of(List<CaseResult> cases) {
        Map<String, List<CaseResult>> byKey = new LinkedHashMap<>();
        for (CaseResult c : cases) {
            byKey.computeIfAbsent(c.groupKey(), k -> new ArrayList<>()).add(c);
        }
        List<CaseGroups> groups = new ArrayList<>();
        for (List<CaseResult> g : byKey.values()) {
            List<CaseResult> sorted = g.stream().sorted(Comparator.comparingLong(CaseResult::ioOrder)).toList();
            groups.add(new CaseGroups(groups.size() + 1, sorted.getFirst().groupTitle(), sorted));
        }
        return groups;
    }

    public List<CaseResult> succeeded() {
        return cases.stream().filter(CaseResult::ok).toList();
    }
}
