import io.loopbench.verdicts.Difference;
import io.loopbench.verdicts.VerdictRule;
import io.loopbench.verdicts.Verdicts;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Two variants of a bench/sidebyside.py run decided by loopbench's own verdict rule (never run by the tests): pair i is
 * BASELINE-i.json and CANDIDATE-i.json (each one repetition, run back to back, order rotated), and the candidate's
 * throughput and p99 (÷ the baseline's, matched) are decided as one family. Beside each pair, what its measured phases'
 * JIT records say: measured-path changes (C2/OSR compilations and deoptimizations) and whether the phase warned.
 *
 *   java -cp target/classes:$(cat target/classpath.txt) bench/PairedVerdict.java DIR[:DIR…] BASELINE CANDIDATE
 *
 * Several folders pool their pairs (ratios are matched within a pair, so runs on different machines may pool).
 */
public class PairedVerdict {

    public static void main(String[] args) throws Exception {
        List<JsonNode[]> pairs = new ArrayList<>();
        for (String folder : args[0].split(":")) {
            File dir = new File(folder);
            for (int i = 1; new File(dir, args[1] + "-" + i + ".json").exists()
                    && new File(dir, args[2] + "-" + i + ".json").exists(); i++) {
                JsonNode a = repetition(new File(dir, args[1] + "-" + i + ".json"));
                JsonNode b = repetition(new File(dir, args[2] + "-" + i + ".json"));
                if (a != null && b != null && a.get("ok").asBoolean() && b.get("ok").asBoolean()) {
                    pairs.add(new JsonNode[] {a, b});
                }
            }
        }
        double[][] rt = new double[2][pairs.size()];
        double[][] p99 = new double[2][pairs.size()];
        System.out.printf(Locale.ROOT, "| pair | %1$s rt/s | %2$s rt/s | %1$s p99 µs | %2$s p99 µs | %1$s path changes "
                + "(warned) | %2$s path changes (warned) |%n| --- | --- | --- | --- | --- | --- | --- |%n", args[1], args[2]);
        int[] warned = new int[2];
        for (int i = 0; i < pairs.size(); i++) {
            String[] jit = new String[2];
            for (int s = 0; s < 2; s++) {
                JsonNode r = pairs.get(i)[s];
                rt[s][i] = r.get("roundTripsPerSecond").asDouble();
                p99[s][i] = r.at("/latency/p99Us").asDouble();
                boolean quiet = r.at("/jit/quiet").asBoolean();
                warned[s] += quiet ? 0 : 1;
                jit[s] = (r.at("/jit/pathOptimizations").asLong() + r.at("/jit/pathDeoptimizations").asLong())
                        + (quiet ? "" : " (warned)");
            }
            System.out.printf(Locale.ROOT, "| %d | %,.0f | %,.0f | %.1f | %.1f | %s | %s |%n", i + 1, rt[0][i], rt[1][i],
                    p99[0][i], p99[1][i], jit[0], jit[1]);
        }
        List<Difference> d = Verdicts.family(List.of(Verdicts.paired(rt[0], rt[1], VerdictRule.DEFAULT),
                Verdicts.paired(p99[0], p99[1], VerdictRule.DEFAULT)), VerdictRule.DEFAULT);
        System.out.printf(Locale.ROOT, "%n%d pairs. %s ÷ %s: throughput %s; p99 %s. Phases not JIT-quiet: %s %d, %s %d.%n",
                pairs.size(), args[2], args[1], d.get(0).words(), d.get(1).words(), args[1], warned[0], args[2],
                warned[1]);
    }

    private static JsonNode repetition(File f) {
        try {
            return JsonMapper.builder().build().readTree(f).get("repetitions").get(0);
        } catch (RuntimeException e) {
            return null;
        }
    }
}
