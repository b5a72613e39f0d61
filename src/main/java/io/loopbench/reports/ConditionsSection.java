package io.loopbench.reports;

import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.process.Environment;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.system.SystemInfo;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A report's test conditions: the machine, the measuring JVM, and what the cases share or differ in (transport,
 * execution, echo server, load, isolation, phases, TLS negotiated). Stateless.
 */
final class ConditionsSection {

    private ConditionsSection() {
    }

    static void write(StringBuilder md, ReportSource s) {
        SystemInfo sys = s.system();
        Environment jvm = s.workerEnvironment();
        List<RunSpec> specs = s.cases().stream().map(CaseResult::spec).toList();
        md.append("## Test conditions\n\n| Condition | Value |\n| --- | --- |\n");
        row(md, "Processor", sys.cpuModel());
        row(md, "Logical CPUs", sys.logicalCpus() + String.format(Locale.ROOT,
                " (100 %% of one CPU is %.2f %% of the machine)", 100.0 / sys.logicalCpus()));
        row(md, "Memory", sys.memoryBytes() == null ? "unknown"
                : String.format(Locale.ROOT, "%.1f GiB", sys.memoryBytes() / (double) (1L << 30)));
        row(md, "Operating system / kernel", sys.os() + " / " + sys.kernel());
        row(md, "Clock source", String.valueOf(sys.clockSource()));
        if (jvm != null) {
            row(md, "Measuring JVM", jvm.javaVendor() + " " + jvm.javaVersion());
            markdownRow(md, "JVM flags", Format.code(String.join(" ", jvm.jvmArguments())));
            if (jvm.classSharing() != null) {
                row(md, "Archive at JVM start", jvm.classSharing().description());
            }
            row(md, "Garbage collectors", String.join(", ", jvm.garbageCollectors()));
            row(md, "ByteBuf allocator", jvm.allocator());
        }
        row(md, "Netty / Reactor Netty", sys.nettyVersion() + " / " + sys.reactorNettyVersion());
        row(md, "Transport", distinct(s.cases().stream().map(c -> c.transport() == null ? "not resolved"
                : c.transport().label() + (c.spec().transport().label().equals(c.transport().label()) ? ""
                : " (requested " + c.spec().transport().label() + ")"))));
        row(md, "Execution", distinct(specs.stream().map(x -> x.execution().label())));
        row(md, "Echo server", distinct(specs.stream().map(x -> x.target() == null
                ? "loopback pair in the measuring process" : "remote target " + x.target())));
        if (specs.stream().map(x -> x.target() == null).distinct().count() > 1) {
            markdownRow(md, "Warning", "**this report mixes remote and loopback cases; they are not comparable as like "
                    + "for like**");
        }
        row(md, "Load", distinct(specs.stream().map(x -> x.rate() == null ? "closed loop"
                : String.format(Locale.ROOT, "open loop at %,.0f messages/s", x.rate()))));
        row(md, "Isolation", "forked".equals(s.isolation()) ? "forked: each repetition in a fresh JVM"
                : "in-process: repetitions in the service's JVM");
        row(md, "Measurement / warm-up / repetitions", distinct(s.cases().stream().map(c -> c.spec().seconds()
                + " s / " + SelfChecks.warmupSpecified(c) + " / " + c.spec().repetitions())));
        row(md, "Address family", distinct(specs.stream().map(x -> x.addressFamily().label())));
        String tls = distinct(s.cases().stream().flatMap(c -> c.repetitions().stream())
                .map(rep -> rep.setup().tls()).filter(java.util.Objects::nonNull)
                .map(t -> t.provider() + ": " + t.protocol() + " " + t.cipherSuite()));
        if (!tls.isEmpty()) {
            row(md, "TLS negotiated", tls);
        }
        md.append('\n');
    }

    private static String distinct(java.util.stream.Stream<String> values) {
        return values.distinct().collect(Collectors.joining("; "));
    }

    /** A row whose value is text, some of it from the source: escaped. */
    private static void row(StringBuilder md, String name, String value) {
        markdownRow(md, name, Format.text(value));
    }

    /** A row whose value is Markdown, the report's own or escaped already. */
    private static void markdownRow(StringBuilder md, String name, String markdown) {
        md.append("| ").append(name).append(" | ").append(markdown).append(" |\n");
    }
}
