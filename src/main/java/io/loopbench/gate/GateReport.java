package io.loopbench.gate;

import io.loopbench.reports.Format;

import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;
import java.io.StringWriter;
import java.util.Locale;

/**
 * A {@link RegressionGate.Result} as Markdown, for people, and as JUnit XML, so that a CI system shows each case and
 * metric as a test: regressed is a failure, undecided an error, a failed or one-sided case an error too. Text that
 * came from a stored file is escaped where it is written. Stateless.
 */
public final class GateReport {

    private GateReport() {
    }

    public static String markdown(RegressionGate.Result r) {
        StringBuilder md = new StringBuilder();
        md.append("# loopbench regression gate: ").append(r.verdict().label()).append("\n\n");
        md.append("Candidate ").append(Format.text(r.candidateId())).append(" against baseline ")
                .append(Format.text(r.baselineId())).append(String.format(Locale.ROOT, ", threshold %.0f %% "
                        + "(p99 %.0f %%), alpha %s, %d %s: **%s** (exit code %d).\n\n", r.threshold() * 100,
                        r.p99Threshold() * 100, r.alpha(), r.pairs(),
                        r.paired() ? "pairs" : "repetitions a side at the fewest", r.verdict().label(),
                        r.exitCode()));
        md.append("Method: ").append(r.method()).append("; a repetition whose figures carry a warning is left out")
                .append(r.paired() ? ", with its pair" : "").append(".\n\n");
        if (!r.cases().isEmpty()) {
            md.append("| case | metric | baseline median | candidate median | verdict |\n");
            md.append("| --- | --- | --- | --- | --- |\n");
            for (RegressionGate.CaseGate g : r.cases()) {
                for (RegressionGate.Check k : g.checks()) {
                    md.append("| ").append(Format.text(g.name())).append(" | ").append(k.metric()).append(" | ")
                            .append(figure(k.metric(), k.baselineMedian())).append(" | ")
                            .append(figure(k.metric(), k.candidateMedian())).append(" | ")
                            .append(Format.text(k.words())).append(" |\n");
                }
            }
            md.append('\n');
        }
        if (!r.reasons().isEmpty()) {
            md.append(r.verdict() == RegressionGate.Verdict.REGRESSED ? "Also not judged:\n\n"
                    : "Why it is undecided:\n\n");
            r.reasons().forEach(reason -> md.append("- ").append(Format.text(reason)).append('\n'));
            md.append('\n');
        }
        r.cases().stream().filter(g -> !g.warnings().isEmpty()).forEach(g -> {
            md.append("Left out of ").append(Format.text(g.name())).append(" for their warnings (paired, with "
                    + "their pairs):\n\n");
            g.warnings().forEach(w -> md.append("- ").append(Format.text(w)).append('\n'));
            md.append('\n');
        });
        return md.toString();
    }

    private static String figure(String metric, double value) {
        return metric.equals("p99") ? String.format(Locale.ROOT, "%,.1f µs", value)
                : String.format(Locale.ROOT, "%,.0f round trips/s", value);
    }

    /** The result as a JUnit XML test suite: one test case per case and metric, and one per case not judged. */
    public static String junitXml(RegressionGate.Result r) {
        StringWriter out = new StringWriter();
        try {
            XMLStreamWriter x = XMLOutputFactory.newFactory().createXMLStreamWriter(out);
            int tests = r.cases().size() * 2 + r.failedCases().size() + r.unmatched().size();
            long failures = r.cases().stream().flatMap(g -> g.checks().stream())
                    .filter(k -> k.outcome() == RegressionGate.Outcome.REGRESSED).count();
            long errors = tests - failures - r.cases().stream().flatMap(g -> g.checks().stream())
                    .filter(k -> k.outcome() == RegressionGate.Outcome.WITHIN).count();
            x.writeStartDocument("UTF-8", "1.0");
            x.writeCharacters("\n");
            x.writeStartElement("testsuite");
            x.writeAttribute("name", "loopbench regression gate: " + r.candidateId() + " against " + r.baselineId());
            x.writeAttribute("tests", String.valueOf(tests));
            x.writeAttribute("failures", String.valueOf(failures));
            x.writeAttribute("errors", String.valueOf(errors));
            x.writeAttribute("skipped", "0");
            x.writeCharacters("\n");
            x.writeStartElement("properties");
            property(x, "verdict", r.verdict().label());
            property(x, "exitCode", String.valueOf(r.exitCode()));
            property(x, "threshold", String.valueOf(r.threshold()));
            property(x, "p99Threshold", String.valueOf(r.p99Threshold()));
            property(x, "alpha", String.valueOf(r.alpha()));
            property(x, "method", r.method());
            x.writeEndElement();
            x.writeCharacters("\n");
            for (RegressionGate.CaseGate g : r.cases()) {
                for (RegressionGate.Check k : g.checks()) {
                    x.writeStartElement("testcase");
                    x.writeAttribute("classname", "loopbench.gate");
                    x.writeAttribute("name", g.name() + " " + k.metric());
                    if (k.outcome() == RegressionGate.Outcome.REGRESSED) {
                        element(x, "failure", k.words(), String.join("\n", g.warnings()));
                    } else if (k.outcome() != RegressionGate.Outcome.WITHIN) {
                        element(x, "error", k.words(), String.join("\n", g.warnings()));
                    }
                    x.writeEndElement();
                    x.writeCharacters("\n");
                }
            }
            for (String f : r.failedCases()) {
                notJudged(x, f, "a side failed: " + f);
            }
            for (String u : r.unmatched()) {
                notJudged(x, u, "on one side only: " + u);
            }
            x.writeEndElement();
            x.writeCharacters("\n");
            x.writeEndDocument();
            x.close();
        } catch (XMLStreamException e) {
            throw new IllegalStateException("cannot write the gate's JUnit XML", e);
        }
        return out.toString();
    }

    private static void property(XMLStreamWriter x, String name, String value) throws XMLStreamException {
        x.writeEmptyElement("property");
        x.writeAttribute("name", name);
        x.writeAttribute("value", value);
    }

    private static void element(XMLStreamWriter x, String name, String message, String body)
            throws XMLStreamException {
        x.writeStartElement(name);
        x.writeAttribute("message", message);
        x.writeCharacters(body);
        x.writeEndElement();
    }

    private static void notJudged(XMLStreamWriter x, String name, String why) throws XMLStreamException {
        x.writeStartElement("testcase");
        x.writeAttribute("classname", "loopbench.gate");
        x.writeAttribute("name", name);
        element(x, "error", why, "");
        x.writeEndElement();
        x.writeCharacters("\n");
    }
}
