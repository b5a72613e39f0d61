import io.loopbench.verdicts.Decision;
import io.loopbench.verdicts.Difference;
import io.loopbench.verdicts.VerdictRule;
import io.loopbench.verdicts.Verdicts;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * An A/A test on real repetitions (bench/aa.sh runs it): the passed repetitions of `./loopbench measure` results of
 * one spec are read, each result on its own, as trials of PAIRS pairs — repetition 2i−1 as A, 2i as B, so that A and B alternate — and each
 * trial's throughput and p99 differences (B ÷ A, matched) are decided as one family by the verdict rule. With no
 * true difference, at most 1 trial in 20 may be called different. Beside it, the rule loopbench used before (two
 * min–max ranges that miss each other: "established") on the same trials. Prints a Markdown table.
 *
 *   java -cp target/classes:$(cat target/classpath.txt) bench/AaVerdicts.java PAIRS RESULT.json…
 */
public class AaVerdicts {

    public static void main(String[] args) throws Exception {
        int pairs = Integer.parseInt(args[0]);
        List<double[]> reps = new ArrayList<>(); // round trips/s, p99 µs; whole trials of each result
        int passed = 0;
        for (String file : Arrays.copyOfRange(args, 1, args.length)) {
            List<double[]> own = new ArrayList<>();
            for (JsonNode r : JsonMapper.builder().build().readTree(new File(file)).get("repetitions")) {
                if (r.get("ok").asBoolean()) {
                    own.add(new double[] {r.get("roundTripsPerSecond").asDouble(), r.at("/latency/p99Us").asDouble()});
                }
            }
            passed += own.size();
            reps.addAll(own.subList(0, own.size() / (2 * pairs) * 2 * pairs));
        }
        int trials = reps.size() / (2 * pairs);
        int different = 0;
        int established = 0;
        int oldRule = 0;
        System.out.println("| trial | throughput B ÷ A | p99 B ÷ A | min–max ranges apart (old rule) |");
        System.out.println("| --- | --- | --- | --- |");
        for (int t = 0; t < trials; t++) {
            double[][] a = new double[2][pairs];
            double[][] b = new double[2][pairs];
            for (int i = 0; i < pairs; i++) {
                double[] x = reps.get(t * 2 * pairs + 2 * i);
                double[] y = reps.get(t * 2 * pairs + 2 * i + 1);
                for (int m = 0; m < 2; m++) {
                    a[m][i] = x[m];
                    b[m][i] = y[m];
                }
            }
            List<Difference> d = Verdicts.family(List.of(Verdicts.paired(a[0], b[0], VerdictRule.DEFAULT),
                    Verdicts.paired(a[1], b[1], VerdictRule.DEFAULT)), VerdictRule.DEFAULT);
            boolean calledDifferent = d.stream().anyMatch(x -> x.decision() == Decision.ESTABLISHED
                    || x.decision() == Decision.BELOW_MINIMUM_EFFECT);
            different += calledDifferent ? 1 : 0;
            established += d.stream().anyMatch(Difference::established) ? 1 : 0;
            boolean apart = apart(a[0], b[0]) || apart(a[1], b[1]);
            oldRule += apart ? 1 : 0;
            System.out.printf(Locale.ROOT, "| %d | %s | %s | %s |%n", t + 1, d.get(0).words(), d.get(1).words(),
                    apart ? "yes: \"established\"" : "no");
        }
        System.out.printf(Locale.ROOT, "%nTrials: %d of %d pairs each (%d passed repetitions). Called different "
                        + "(the test rejects, Holm over throughput and p99): %d; established (and over the 5 %% minimum "
                        + "effect): %d; ranges apart by the old min–max rule: %d.%n", trials, pairs, passed,
                different, established, oldRule);
    }

    private static boolean apart(double[] a, double[] b) {
        double[] x = a.clone();
        double[] y = b.clone();
        Arrays.sort(x);
        Arrays.sort(y);
        return x[x.length - 1] < y[0] || y[y.length - 1] < x[0];
    }
}
