package io.loopbench.reports;

import io.loopbench.engine.IoModel;
import io.loopbench.engine.RunSpec;
import io.loopbench.engine.Summary;
import io.loopbench.engine.Transport;

import java.util.Locale;

/**
 * One measured case of a report: what ran and its summary over repetitions.
 *
 * @param spec        the case's specification
 * @param transport   the concrete transport used
 * @param summary     median/min/max over repetitions; null when the case failed
 * @param repetitions how many repetitions ran
 * @param error       why the case failed, or null
 */
public record CaseResult(RunSpec spec, Transport transport, Summary summary, int repetitions, String error) {

    public boolean ok() {
        return summary != null;
    }

    /** The IO profile as the charts name it: {@code shared 2}, {@code sharded 4}. */
    public String ioLabel() {
        return spec.ioModel().label() + " " + spec.ioThreads();
    }

    /** The IO profile in arknet's words: "1 group / 2 threads", "4 loops / 1 thread each". */
    public String ioWords() {
        int n = spec.ioThreads();
        return spec.ioModel() == IoModel.SHARED
                ? "1 loop group / " + n + (n == 1 ? " thread" : " threads")
                : n + " loops / 1 thread each";
    }

    /** Sort order of IO profiles: shared before sharded, fewer threads first. */
    int ioOrder() {
        return (spec.ioModel() == IoModel.SHARED ? 0 : 1000) + spec.ioThreads();
    }

    /** Everything but the IO profile and the repetition count: the cases one comparison group holds. */
    public String groupKey() {
        return curveKey() + "/" + spec.load().label() + "/" + spec.rate();
    }

    /** Everything but the IO profile, the open-load rate and the repetition count: the cases of one rate curve. */
    public String curveKey() {
        RunSpec s = spec;
        return String.join("/", s.protocol().label(), String.valueOf(s.payloadBytes()), String.valueOf(s.clients()),
                String.valueOf(s.window()), s.windowMode().label(), String.valueOf(s.work()), s.transport().label(),
                s.addressFamily().label(), String.valueOf(s.seconds()), String.valueOf(s.warmupSeconds()),
                String.valueOf(s.target()));
    }

    /** The case itself, without its repetition count: how comparisons match cases. */
    public String caseKey() {
        return groupKey() + "/" + ioLabel();
    }

    /** "TCP / 1024 B / 16 clients × window 16 / no added computation" (plus window mode and transport when not
     * the defaults). */
    public String groupTitle() {
        return spec.rate() == null ? curveTitle()
                : curveTitle() + String.format(Locale.ROOT, " / open load at %,.0f messages/s", spec.rate());
    }

    /** The group title without the open-load rate: the title of a rate curve. */
    public String curveTitle() {
        RunSpec s = spec;
        StringBuilder b = new StringBuilder(s.protocol().label().toUpperCase(Locale.ROOT))
                .append(" / ").append(s.payloadBytes()).append(" B / ")
                .append(s.clients()).append(s.clients() == 1 ? " client" : " clients")
                .append(" × window ").append(s.window()).append(" / ")
                .append(s.work() == 0 ? "no added computation"
                        : String.format(Locale.ROOT, "%,d CPU iterations per echo", s.work()));
        if (s.windowMode() != io.loopbench.engine.WindowMode.SLIDING) {
            b.append(" / ").append(s.windowMode().label()).append(" window");
        }
        if (s.transport() != Transport.AUTO) {
            b.append(" / ").append(s.transport().label());
        }
        return b.toString();
    }
}
