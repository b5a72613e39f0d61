package io.loopbench.reports;

import io.loopbench.engine.Stat;
import io.loopbench.engine.profile.CallTree;
import io.loopbench.engine.profile.CpuProfile;
import io.loopbench.engine.profile.Layer;
import io.loopbench.engine.spec.IoModel;
import io.loopbench.engine.spec.Protocol;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.verdicts.VerdictRule;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A report's "Where the CPU time goes": each profiled case's CPU µs per round trip by layer, what sampled it, its
 * threads and its flame graph, the layers defined, and the key result naming where the CPU per round trip differs;
 * and the flame graph itself, a rect per frame as wide as its samples.
 */
class ProfileReportTest {

    private static final String LOOP = "[loopbench-epoll-0-1];io/netty/channel/epoll/EpollIoHandler.run;";
    private static final String OTHER_LOOP = "[loopbench-epoll-1-1];io/netty/channel/epoll/EpollIoHandler.run;";

    /**
     * shared 1 at a million round trips/s: 600 of its 1,000 samples per repetition in kernel send, 400 in Netty's
     * pipeline; shared 2 not profiled; sharded 2 at two million, sampled by the flight recorder (Java frames only):
     * one loop with 300 samples in send and 150 in the pipeline, the other 50 in the pipeline.
     */
    private static ReportSource matrix() {
        CallTree sharded = new CallTree();
        sharded.addCollapsed(LOOP + "io/netty/channel/unix/FileDescriptor.writeAddress 300\n"
                + LOOP + "io/netty/channel/DefaultChannelPipeline.fireChannelRead 150\n"
                + OTHER_LOOP + "io/netty/channel/DefaultChannelPipeline.fireChannelRead 50");
        return ReportRulesTest.source("m", List.of(
                ReportFixtures.profiled(spec(IoModel.SHARED, 1), 1e6, ReportFixtures.loopProfile(600, 400)),
                ReportFixtures.ok(spec(IoModel.SHARED, 2), new Stat(5e5, 5e5, 5e5), new Stat(100, 100, 100)),
                ReportFixtures.profiled(spec(IoModel.SHARDED, 2), 2e6, sharded.toProfile("flight recorder",
                        "jdk.CPUTimeSample", "async-profiler could not start: no perf events", 5000))));
    }

    private static RunSpec spec(IoModel model, int threads) {
        return RunSpec.builder().ioModel(model).ioThreads(threads).build();
    }

    @Test
    void eachProfiledCaseShowsItsCpuPerRoundTripByLayerItsThreadsAndItsFlameGraph() {
        ReportSource source = matrix();
        String md = ReportRenderer.markdown(source, "charts/", VerdictRule.DEFAULT);

        // shared 1: 1 µs per round trip, 60 % of it in kernel send; sharded 2: 0.5 µs, 60 % in kernel send too
        assertThat(md).contains("## Where the CPU time goes\n\n", """
                | Layer | shared 1 | sharded 2 |
                | --- | --- | --- |
                | kernel send | 0.60 (60.0 %) | 0.30 (60.0 %) |
                | Netty pipeline | 0.40 (40.0 %) | 0.20 (40.0 %) |
                | all layers | 1.00 | 0.50 |

                - shared 1: 3 repetitions, 3,000 samples by async-profiler 4.2 (cpu); [flame graph](charts/flame-1.svg).
                - shared 2: not profiled.
                - sharded 2: 3 repetitions, 1,500 samples by flight recorder (jdk.CPUTimeSample), since async-profiler \
                could not start: no perf events; no stack reached into the kernel, so the kernel's own work is not seen \
                apart: it counts in the layer of the call that entered it; [flame graph](charts/flame-3.svg).

                | IO model | Thread | CPU µs per round trip (share) | Largest layers (share of the samples) |
                | --- | --- | --- | --- |
                | shared 1 | \\[loopbench-epoll-0-1\\] | 1.00 (100.0 %) | kernel send 60.0 %, Netty pipeline 40.0 % |
                | sharded 2 | \\[loopbench-epoll-0-1\\] | 0.45 (90.0 %) | kernel send 60.0 %, Netty pipeline 30.0 % |
                | sharded 2 | \\[loopbench-epoll-1-1\\] | 0.05 (10.0 %) | Netty pipeline 10.0 % |
                """);
        for (Layer l : Layer.values()) {
            assertThat(md).contains("- *" + l.words() + "*: " + l.meaning() + ".\n");
        }
        assertThat(md).contains("Against the runner-up, 1 loop group / 1 thread: throughput ")
                .contains(" CPU profiles: no layer's difference in CPU per round trip is established; the largest, "
                        + "kernel send (0.30 µs against 0.60 µs): 0.50×, too few repetitions to decide (3; at least 7 "
                        + "needed).");
        assertThat(ReportCharts.chartNames(source)).contains("flame-1", "flame-3").doesNotContain("flame-2");
        assertThat(ReportCharts.chart(source, "flame-1")).get(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                .contains("Where the CPU time goes — TCP / 1024 B / 16 clients × window 16 / no added computation "
                        + "/ shared 1 (3 repetitions merged)", "3,000 samples by async-profiler 4.2 (cpu)");
        assertThat(List.of("flame-2", "flame-4", "flame-0", "flame-x", "flame-")).allSatisfy(
                name -> assertThat(ReportCharts.chart(source, name)).as(name).isEmpty());
        assertThat(ReportRenderer.html(source, "charts/", VerdictRule.DEFAULT))
                .contains("href=\"charts/flame-1.svg\">flame graph</a>");
    }

    @Test
    void aReportWithoutProfilesSaysNothingOfThem() {
        ReportSource source = ReportRulesTest.source("m", List.of(
                ReportFixtures.ok(spec(IoModel.SHARED, 1), new Stat(1e6, 1e6, 1e6), new Stat(100, 100, 100)),
                ReportFixtures.ok(spec(IoModel.SHARED, 2), new Stat(5e5, 5e5, 5e5), new Stat(100, 100, 100))));

        String md = ReportRenderer.markdown(source, "charts/", VerdictRule.DEFAULT);

        assertThat(md).doesNotContain("CPU time goes", "flame", "CPU profiles", "Layers", "kernel send");
        assertThat(ReportCharts.chartNames(source)).noneMatch(n -> n.startsWith("flame-"));
    }

    @Test
    void theProtocolCostSaysWhereTheCpuPerRoundTripDiffers() {
        ReportSource source = ReportRulesTest.source("m", List.of(
                ReportFixtures.profiled(RunSpec.builder().protocol(Protocol.TCP).build(), 1e6,
                        ReportFixtures.loopProfile(600, 400)),
                ReportFixtures.profiled(RunSpec.builder().protocol(Protocol.TCPS).build(), 1e6,
                        ReportFixtures.loopProfile(900, 400))));

        String md = ReportRenderer.markdown(source, "charts/", VerdictRule.DEFAULT);

        // the same CPU second per million round trips, 900 of 1,300 samples in kernel send against 600 of 1,000
        assertThat(md).containsPattern("\\| tcps \\| tcp \\(TLS cost\\) \\|.*\\| CPU profiles: no layer's difference in CPU per "
                + "round trip is established; the largest, kernel send \\(0\\.69 µs against 0\\.60 µs\\): 1\\.15×, too few "
                + "repetitions to decide \\(3; at least 7 needed\\) \\|\\n");
    }

    /**
     * A thread of 10,000 samples: a Java frame with 5,000 of its own and a callee {@code tiny} with 1 (0.1 px: left
     * out), a native one with 4,000 and a kernel callee with 999. Stored profiles leave out under 0.5 % of the
     * samples, so the tree is made by hand.
     */
    @Test
    void theFlameGraphHasARectPerFrameWideAsItsSamples() throws Exception {
        List<String> frames = List.of("[loopbench-epoll-0-1]", "io/netty/A.a", "tcp_sendmsg_[k]", "write", "tiny");
        int[] tree = {-1, 0, 0, /* 1 */ 0, 1, 5000, /* 2 */ 1, 4, 1, /* 3 */ 0, 3, 4000, /* 4 */ 3, 2, 999};
        CpuProfile profile = new CpuProfile("async-profiler 4.2", "cpu", null, 5000, 10_000, true, List.of(),
                List.of(), frames, tree);

        Document svg = parse(FlameGraph.svg("flame", profile));

        NodeList rects = svg.getElementsByTagNameNS("*", "rect");
        List<String> titles = new ArrayList<>();
        double perSample = (FlameGraph.WIDTH - 2.0 * FlameGraph.MARGIN) / 10_000;
        double[] widths = new double[rects.getLength()];
        for (int i = 0; i < rects.getLength(); i++) {
            Element rect = (Element) rects.item(i);
            Element group = (Element) rect.getParentNode();
            String title = group.getElementsByTagNameNS("*", "title").item(0).getTextContent();
            titles.add(title);
            long samples = Long.parseLong(title.replaceAll(".*: ([0-9,]+) samples?, .*", "$1").replace(",", ""));
            widths[i] = Double.parseDouble(rect.getAttribute("width"));
            assertThat(widths[i]).as(title).isCloseTo(samples * perSample, within(1e-6));
        }
        assertThat(titles).containsExactly("all threads: 10,000 samples, 100.00 % of all",
                "[loopbench-epoll-0-1]: 10,000 samples, 100.00 % of all", "io/netty/A.a: 5,001 samples, 50.01 % of all",
                "write: 4,999 samples, 49.99 % of all", "tcp_sendmsg_[k]: 999 samples, 9.99 % of all");
        // the root spans every sample; the Java and the native frame, side by side by name, fill their thread
        assertThat(widths[0]).isCloseTo(FlameGraph.WIDTH - 2.0 * FlameGraph.MARGIN, within(1e-6));
        assertThat(widths[2] + widths[3]).isCloseTo(widths[1], within(1e-6));
        assertThat(Double.parseDouble(((Element) rects.item(3)).getAttribute("x"))).isCloseTo(
                Double.parseDouble(((Element) rects.item(2)).getAttribute("x")) + widths[2], within(1e-6));
        assertThat(fill(rects, 1)).isNotEqualTo(fill(rects, 2));
        assertThat(List.of(fill(rects, 2), fill(rects, 3), fill(rects, 4))).doesNotHaveDuplicates();
    }

    private static String fill(NodeList rects, int i) {
        return ((Element) rects.item(i)).getAttribute("style");
    }

    static Document parse(String svg) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        return f.newDocumentBuilder().parse(new InputSource(new StringReader(svg)));
    }
}
