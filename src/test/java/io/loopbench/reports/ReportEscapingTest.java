package io.loopbench.reports;

import io.loopbench.engine.Failure;
import io.loopbench.engine.profile.CallTree;
import io.loopbench.engine.profile.CpuProfile;
import io.loopbench.engine.profile.ProfileSummary;
import io.loopbench.verdicts.VerdictRule;
import io.loopbench.matrices.MatrixRecord;
import org.commonmark.ext.gfm.tables.TableBlock;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Code;
import org.commonmark.node.CustomBlock;
import org.commonmark.node.Document;
import org.commonmark.node.Emphasis;
import org.commonmark.node.Heading;
import org.commonmark.node.HtmlBlock;
import org.commonmark.node.HtmlInline;
import org.commonmark.node.Image;
import org.commonmark.node.Link;
import org.commonmark.node.ListItem;
import org.commonmark.node.Node;
import org.commonmark.node.Paragraph;
import org.commonmark.node.SoftLineBreak;
import org.commonmark.node.StrongEmphasis;
import org.commonmark.node.Text;
import org.commonmark.parser.Parser;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stored matrix whose every free-text field is hostile — the id, the host's and the worker JVM's strings, a
 * case's target, errors, warnings, why a warm-up stopped, a CPU profile's threads, frames, profiler and fallback —
 * reports it as text: the Markdown keeps its structure
 * (the same cells per row, no injected heading, list, link, image, emphasis or HTML), the HTML page runs and links
 * to nothing of it, and the SVG charts are well-formed XML that hold such text only as text.
 */
class ReportEscapingTest {

    static final String SCRIPT = "<script>alert(1)</script>";
    static final String IMG = "<img src=x onerror=alert(1)>";
    static final String LINK = "[x](javascript:alert(1))";
    static final String CELLS = "| injected | cell |\n# heading";

    static final String ID = SCRIPT;
    static final String KERNEL = "6.1 " + CELLS;
    static final List<String> FLAGS = List.of("-Dx=" + IMG, "-Dy=`|`\\|");
    static final String VENDOR = "Vendor\n- injected item";
    static final String ALLOCATOR = "![i](javascript:alert(1)) *bold* _em_";
    static final String WARNING = "repetition 2: " + CELLS;
    static final String STOPPED = "`steady` <i>x</i>";
    static final String CASE_ERROR = SCRIPT + " " + CELLS;
    static final String REPETITION_ERROR = "unfair: " + IMG + "\n> quoted";
    static final String FRAME = SCRIPT + "&\"'";
    /** A frame no XML document can hold as it is: a control character and half a surrogate pair. */
    static final String UNWRITABLE = LINK + "\u0001\uD800";

    static final Parser MARKDOWN = Parser.builder().extensions(List.of(TablesExtension.create())).build();
    static final Pattern UNSAFE_URL = Pattern.compile("(?i)(href|src)\\s*=\\s*\"\\s*javascript:");

    /** The self-checks fixture, stored as the service stores it, with hostile text in every free-text field. */
    static MatrixRecord hostileMatrix() throws Exception {
        JsonMapper json = JsonMapper.builder().build();
        ObjectNode m = (ObjectNode) json.readTree(
                MarkdownReportGoldenTest.DIRECTORY.resolve("matrix-selfchecks-fixture.json").toFile());
        m.put("id", ID);
        ObjectNode system = (ObjectNode) m.get("system");
        system.put("cpuModel", LINK);
        system.put("kernel", KERNEL);
        system.put("clockSource", IMG);
        ObjectNode env = (ObjectNode) m.get("workerEnvironment");
        env.put("javaVendor", VENDOR);
        env.set("jvmArguments", json.valueToTree(FLAGS));
        env.set("garbageCollectors", json.valueToTree(List.of(SCRIPT, "G1 *Old* _Gen_")));
        env.put("allocator", ALLOCATOR);
        ObjectNode remote = (ObjectNode) m.get("cases").get(0);
        ((ObjectNode) remote.get("spec")).put("target", LINK);
        ((ArrayNode) remote.get("summary").get("warnings")).add(WARNING);
        ((ObjectNode) remote.get("repetitions").get(0).get("warmup")).put("stoppedBecause", STOPPED);
        CpuProfile profile = hostileProfile();
        for (var repetition : remote.get("repetitions")) {
            ((ObjectNode) repetition).set("cpuProfile", json.valueToTree(profile));
        }
        ((ObjectNode) remote.get("summary")).set("cpuProfile",
                json.valueToTree(ProfileSummary.of(List.of(profile, profile), 0.68, 816_432)));
        ObjectNode failed = (ObjectNode) m.get("cases").get(1);
        failed.put("error", CASE_ERROR);
        // a worker's words (its stderr's last line) reach a failure's data
        ((ObjectNode) failed.get("repetitions").get(0)).set("failure",
                json.valueToTree(new Failure.Worker(REPETITION_ERROR)));
        return json.treeToValue(m, MatrixRecord.class);
    }

    /** A CPU profile whose threads, frames, profiler, event and fallback are hostile. */
    static CpuProfile hostileProfile() {
        CallTree t = new CallTree();
        t.add(List.of("[" + CELLS + "]", "io/netty/channel/epoll/EpollIoHandler.run", FRAME), 60);
        t.add(List.of("[loopbench-epoll-0-1]", UNWRITABLE, FRAME + "_[k]"), 40);
        return t.toProfile(IMG, "`cpu`|", CASE_ERROR, 5000);
    }

    @Test
    void theMarkdownKeepsItsStructureAndShowsHostileTextAsText() throws Exception {
        ReportSource source = ReportSources.of(hostileMatrix());
        Node doc = MARKDOWN.parse(ReportRenderer.markdown(source, "charts/", VerdictRule.DEFAULT));

        List<String> links = new ArrayList<>();
        List<String> images = new ArrayList<>();
        List<String> headings = new ArrayList<>();
        List<String> emphasis = new ArrayList<>();
        List<String> code = new ArrayList<>();
        List<Node> html = new ArrayList<>();
        List<Node> nested = new ArrayList<>();
        List<String> cells = new ArrayList<>();
        List<String> items = new ArrayList<>();
        doc.accept(new AbstractVisitor() {
            @Override
            public void visit(Link n) {
                links.add(n.getDestination());
                visitChildren(n);
            }

            @Override
            public void visit(Image n) {
                images.add(n.getDestination());
            }

            @Override
            public void visit(Heading n) {
                headings.add(text(n));
                if (!(n.getParent() instanceof Document)) {
                    nested.add(n);
                }
            }

            @Override
            public void visit(Emphasis n) {
                emphasis.add(text(n));
            }

            @Override
            public void visit(StrongEmphasis n) {
                emphasis.add(text(n));
            }

            @Override
            public void visit(Code n) {
                code.add(n.getLiteral());
            }

            @Override
            public void visit(HtmlInline n) {
                html.add(n);
            }

            @Override
            public void visit(HtmlBlock n) {
                html.add(n);
            }

            @Override
            public void visit(ListItem n) {
                items.add(text(n));
                // a list item's content is one paragraph of text, never a heading, quote or list of its own
                if (n.getFirstChild() != n.getLastChild()
                        || !(n.getFirstChild() instanceof Paragraph)) {
                    nested.add(n);
                }
                visitChildren(n);
            }

            @Override
            public void visit(CustomBlock n) {
                if (n instanceof TableBlock table) {
                    int columns = -1;
                    for (Node section = table.getFirstChild(); section != null; section = section.getNext()) {
                        for (Node row = section.getFirstChild(); row != null; row = row.getNext()) {
                            int count = 0;
                            for (Node cell = row.getFirstChild(); cell != null; cell = cell.getNext()) {
                                count++;
                                cells.add(text(cell));
                            }
                            columns = columns < 0 ? count : columns;
                            assertThat(count).as("cells of a row of a table whose first row has %d", columns)
                                    .isEqualTo(columns);
                        }
                    }
                }
                visitChildren(n);
            }
        });

        assertThat(html).as("raw HTML").isEmpty();
        assertThat(nested).as("block structure inside list items or headings").isEmpty();
        assertThat(links).as("links").containsExactlyInAnyOrder(
                "/api/matrices/%3Cscript%3Ealert%281%29%3C%2Fscript%3E", "charts/flame-1.svg");
        assertThat(images).as("images").allMatch(d -> d.startsWith("charts/")).isNotEmpty();
        assertThat(headings).as("headings").noneMatch(h -> h.contains("heading") || h.contains("injected"))
                .contains("loopbench report: matrix " + ID);
        assertThat(emphasis).as("emphasis").noneMatch(e -> e.equals("bold") || e.equals("em") || e.equals("Old"));
        assertThat(code).as("code spans").contains(String.join(" ", FLAGS));
        assertThat(cells).contains(LINK, "Linux amd64 / 6.1 | injected | cell | # heading", IMG,
                "Vendor - injected item 25.0.3", String.join(" ", FLAGS), SCRIPT + ", G1 *Old* _Gen_", ALLOCATOR,
                "remote target " + LINK + "; loopback pair in the measuring process",
                "FAILED: " + SCRIPT + " | injected | cell | # heading");
        assertThat(cells).anyMatch(c -> c.endsWith("stopped because `steady` <i>x</i> in 1, steady in 1"));
        assertThat(cells).contains("[| injected | cell | # heading]", "[loopbench-epoll-0-1]");
        assertThat(items).contains("shared 1: 2 repetitions, 200 samples by " + IMG + " (`cpu`|), since " + SCRIPT
                + " | injected | cell | # heading; flame graph.");
        assertThat(items).contains("1 loop group / 1 thread, repetition 2: | injected | cell | # heading",
                "1 loop group / 2 threads, repetition 1: unfair: " + IMG + " > quoted");
    }

    @Test
    void theHtmlPageRunsNothingAndLinksNowhereFromHostileText() throws Exception {
        String html = ReportRenderer.html(ReportSources.of(hostileMatrix()), "charts/", VerdictRule.DEFAULT);

        assertThat(html).doesNotContainIgnoringCase("<script").doesNotContainIgnoringCase("<i>")
                .doesNotContainPattern(UNSAFE_URL);
        assertThat(Pattern.compile("<img\\b[^>]*>").matcher(html).results().map(r -> r.group()).toList())
                .isNotEmpty().allMatch(img -> img.startsWith("<img src=\"charts/"));
        assertThat(html).contains("<title>loopbench report: matrix &lt;script&gt;alert(1)&lt;/script&gt;</title>",
                "&lt;img src=x onerror=alert(1)&gt;", "[x](javascript:alert(1))");
    }

    @Test
    void theHtmlRendererEscapesRawHtmlAndDropsUnsafeUrlsWhereverTheMarkdownHasThem() throws Exception {
        ReportSource s = ReportSources.of(hostileMatrix());
        // the kind and the raw-data URL are the service's own (never escaped as text): made hostile here, they
        // show that the renderer itself neither passes raw HTML through nor writes a javascript: link
        ReportSource own = new ReportSource("<b onclick=alert(1)>matrix</b>", s.id(), s.status(), s.createdAt(),
                s.finishedAt(), s.system(), s.workerEnvironment(), s.isolation(), s.cases(), s.executions(),
                "javascript:alert(1)", s.p99BoundUs());

        String html = ReportRenderer.html(own, "charts/", VerdictRule.DEFAULT);

        assertThat(html).doesNotContain("<b ").doesNotContainPattern(UNSAFE_URL)
                .contains("&lt;b onclick=alert(1)&gt;matrix&lt;/b&gt;");
    }

    @Test
    void chartsAreWellFormedSvgWithHostileTextOnlyAsText() throws Exception {
        ReportSource source = ReportSources.of(hostileMatrix());
        for (String name : ReportCharts.chartNames(source)) {
            svg(ReportCharts.chart(source, name).orElseThrow());
        }
        List<String> bar = svg(ChartRenderer.barChart(SCRIPT, IMG,
                List.of(new ChartRenderer.Bar(LINK + " & \"q\" 'a'", 2, 1, 3))));
        List<String> line = svg(ChartRenderer.lineChart(SCRIPT, IMG, "]]> <!-- x -->",
                Map.of("</text><script>alert(1)</script>", List.<double[]>of(new double[] {1, 2})), 3));

        String flame = ReportCharts.chart(source, "flame-1").orElseThrow();
        List<String> flameTexts = svg(flame);
        List<String> flameTitles = svg(flame, "title");

        assertThat(flameTexts).contains(FRAME, "[| injected | cell |\uFFFD# heading]")
                .anyMatch(t -> t.contains(IMG + " (`cpu`|)"));
        // the fixture's two repetitions, merged
        assertThat(flameTitles).contains(FRAME + ": 120 samples, 60.00 % of all",
                LINK + "\uFFFD\uFFFD: 80 samples, 40.00 % of all", FRAME + "_[k]: 80 samples, 40.00 % of all");
        assertThat(bar).contains(SCRIPT, IMG, LINK + " & \"q\" 'a'");
        assertThat(line).contains(SCRIPT, IMG, "]]> <!-- x -->", "</text><script>alert(1)</script>");
    }

    /** Parses an SVG document as XML, checks that it has no active element, and returns its texts. */
    private static List<String> svg(String svg) throws Exception {
        return svg(svg, "text");
    }

    /** The same, returning the texts of every element of that name. */
    private static List<String> svg(String svg, String element) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        // JFreeSVG names the SVG 1.0 DTD by URL; nothing may be fetched
        f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        org.w3c.dom.Document doc = f.newDocumentBuilder().parse(new InputSource(new StringReader(svg)));
        for (String active : List.of("script", "foreignObject", "a", "img", "iframe", "use")) {
            assertThat(doc.getElementsByTagNameNS("*", active).getLength()).as("<%s> elements", active).isZero();
        }
        NodeList all = doc.getElementsByTagNameNS("*", "*");
        for (int i = 0; i < all.getLength(); i++) {
            Element e = (Element) all.item(i);
            for (int a = 0; a < e.getAttributes().getLength(); a++) {
                assertThat(e.getAttributes().item(a).getNodeName()).as("attribute").doesNotStartWithIgnoringCase("on");
            }
        }
        NodeList texts = doc.getElementsByTagNameNS("*", element);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < texts.getLength(); i++) {
            out.add(texts.item(i).getTextContent());
        }
        return out;
    }

    /** The text a node shows: its text and code literals, line breaks as spaces. */
    private static String text(Node n) {
        StringBuilder b = new StringBuilder();
        n.accept(new AbstractVisitor() {
            @Override
            public void visit(Text t) {
                b.append(t.getLiteral());
            }

            @Override
            public void visit(Code c) {
                b.append(c.getLiteral());
            }

            @Override
            public void visit(SoftLineBreak s) {
                b.append(' ');
            }

            @Override
            public void visit(Image i) {
                // an image shows no text of its own
            }
        });
        return b.toString();
    }
}
