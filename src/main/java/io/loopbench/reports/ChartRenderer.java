package io.loopbench.reports;

import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.util.ShapeUtils;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.DatasetRenderingOrder;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.MinMaxCategoryRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.text.TextUtils;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jfree.svg.SVGGraphics2D;
import io.loopbench.engine.latency.Spectrum;
import io.loopbench.engine.timeline.Timeline;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Component;
import java.awt.Font;
import java.awt.Graphics;
import java.awt.Graphics2D;
import java.awt.Rectangle;
import java.util.List;
import java.util.Map;
import javax.swing.Icon;

/**
 * Bar charts of medians with min–max whiskers, line charts, a repetition's timeline and percentile spectra, drawn by
 * JFreeChart onto an SVG canvas (JFreeSVG). Colours are
 * chosen to read on light and dark backgrounds alike: a transparent background, mid-grey text and axes, and a
 * saturated blue bar with an orange whisker. Flame graphs are drawn by {@link FlameGraph} onto the same canvas.
 * Stateless and thread-safe.
 */
public final class ChartRenderer {

    /** One bar: the median over repetitions and its min–max range, in the chart's unit. */
    public record Bar(String label, double median, double min, double max) {
    }

    static final int WIDTH = 720;
    static final int HEIGHT = 360;
    private static final Color TRANSPARENT = new Color(0, 0, 0, 0);
    static final Color TEXT = new Color(0x80, 0x80, 0x80);
    static final Font TITLE_FONT = new Font(Font.SANS_SERIF, Font.BOLD, 14);
    static final Font SUBTITLE_FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 11);
    private static final Color GRID = new Color(0x80, 0x80, 0x80, 0x50);
    private static final Color BAR = new Color(0x3B, 0x7D, 0xD8);
    private static final Color WHISKER = new Color(0xF0, 0x8A, 0x24);
    private static final Color[] PALETTE = {BAR, new Color(0x2C, 0xA0, 0x2C), new Color(0xD6, 0x27, 0x28),
        new Color(0x94, 0x67, 0xBD), new Color(0x8C, 0x56, 0x4B), WHISKER};

    /** A whisker's end: a short horizontal line. */
    private static final Icon CAP = new Icon() {
        @Override
        public void paintIcon(Component c, Graphics g, int x, int y) {
            Graphics2D g2 = (Graphics2D) g;
            g2.setPaint(WHISKER);
            g2.setStroke(new BasicStroke(2f));
            // JFreeChart passes the whisker's centre
            g2.drawLine(x - getIconWidth() / 2, y, x + getIconWidth() / 2, y);
        }

        @Override
        public int getIconWidth() {
            return 16;
        }

        @Override
        public int getIconHeight() {
            return 2;
        }
    };

    static {
        // draw rotated labels (the value axis) as SVG text, not as glyph outlines: selectable and accessible
        TextUtils.setUseDrawRotatedStringWorkaround(false);
    }

    private ChartRenderer() {
    }

    /**
     * Lines of points (x, y), one per series, with a horizontal dashed line at {@code boundY}.
     *
     * @param series per series name, its points as {x, y}
     */
    public static String lineChart(String title, String xLabel, String yLabel, Map<String, List<double[]>> series,
                                   double boundY) {
        XYSeriesCollection data = new XYSeriesCollection();
        series.forEach((name, points) -> {
            XYSeries s = new XYSeries(name, false);
            points.forEach(p -> s.add(p[0], p[1]));
            data.addSeries(s);
        });
        JFreeChart chart = ChartFactory.createXYLineChart(null, xLabel, yLabel, data);
        XYPlot plot = chart.getXYPlot();
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        for (int i = 0; i < series.size(); i++) {
            renderer.setSeriesPaint(i, PALETTE[i % PALETTE.length]);
            renderer.setSeriesStroke(i, new BasicStroke(2f));
        }
        plot.setRenderer(renderer);
        ValueMarker bound = new ValueMarker(boundY, WHISKER, new BasicStroke(1.5f, BasicStroke.CAP_BUTT,
                BasicStroke.JOIN_MITER, 1f, new float[] {6f, 4f}, 0f));
        bound.setLabel("p99 bound");
        bound.setLabelPaint(TEXT);
        plot.addRangeMarker(bound);
        plot.setBackgroundPaint(TRANSPARENT);
        plot.setOutlineVisible(false);
        plot.setRangeGridlinePaint(GRID);
        plot.setDomainGridlinePaint(GRID);
        for (var axis : List.of(plot.getDomainAxis(), plot.getRangeAxis())) {
            axis.setLabelPaint(TEXT);
            axis.setTickLabelPaint(TEXT);
            axis.setAxisLinePaint(TEXT);
            axis.setTickMarkPaint(TEXT);
        }
        chart.getLegend().setItemPaint(TEXT);
        chart.getLegend().setBackgroundPaint(TRANSPARENT);
        return render(chart, title, "points: medians over repetitions, one per rate; dashed: the p99 bound");
    }

    /**
     * @param title  the chart's title
     * @param yLabel the value axis label, with its unit
     */
    public static String barChart(String title, String yLabel, List<Bar> bars) {
        DefaultCategoryDataset medians = new DefaultCategoryDataset();
        DefaultCategoryDataset ranges = new DefaultCategoryDataset();
        for (Bar b : bars) {
            medians.addValue(b.median(), "median", b.label());
            ranges.addValue(b.min(), "min", b.label());
            ranges.addValue(b.max(), "max", b.label());
        }
        CategoryAxis categories = new CategoryAxis("IO model");
        NumberAxis values = new NumberAxis(yLabel);
        values.setAutoRangeIncludesZero(true);
        BarRenderer barRenderer = new BarRenderer();
        barRenderer.setBarPainter(new StandardBarPainter());
        barRenderer.setShadowVisible(false);
        barRenderer.setSeriesPaint(0, BAR);
        barRenderer.setMaximumBarWidth(0.12);
        CategoryPlot plot = new CategoryPlot(medians, categories, values, barRenderer);
        MinMaxCategoryRenderer whiskers = new MinMaxCategoryRenderer();
        whiskers.setDrawLines(false);
        whiskers.setGroupPaint(WHISKER);
        whiskers.setGroupStroke(new BasicStroke(2f));
        whiskers.setMinIcon(CAP);
        whiskers.setMaxIcon(CAP);
        plot.setDataset(1, ranges);
        plot.setRenderer(1, whiskers);
        plot.setDatasetRenderingOrder(DatasetRenderingOrder.FORWARD); // whiskers over the bars
        plot.setBackgroundPaint(TRANSPARENT);
        plot.setOutlineVisible(false);
        plot.setRangeGridlinePaint(GRID);
        for (var axis : List.of(categories, values)) {
            axis.setLabelPaint(TEXT);
            axis.setTickLabelPaint(TEXT);
            axis.setAxisLinePaint(TEXT);
            axis.setTickMarkPaint(TEXT);
        }
        if (bars.size() > 4) {
            categories.setCategoryLabelPositions(CategoryLabelPositions.UP_45);
        }
        JFreeChart chart = new JFreeChart(null, plot);
        chart.removeLegend();
        return render(chart, title, "bar: median over repetitions; whisker: min–max");
    }

    /**
     * A repetition over time: throughput (left axis) and p99 (right axis, log scale; an interval without RTTs has no
     * point) per interval, at each interval's middle, the start of the measured phase as a vertical line, and the
     * process's marks along the bottom: GC pauses, JIT compilations, deoptimizations and, under open load, late or
     * dropped messages.
     */
    public static String timelineChart(String title, Timeline t) {
        XYSeries throughput = new XYSeries("round trips/s", false);
        XYSeries p99 = new XYSeries("p99 RTT (µs)", false);
        XYSeries gc = new XYSeries("GC pause", false);
        XYSeries compiled = new XYSeries("JIT compilation", false);
        XYSeries deoptimized = new XYSeries("deoptimization", false);
        XYSeries lateOrDropped = new XYSeries("late or dropped", false);
        for (int i = 0; i < t.size(); i++) {
            double x = t.startSeconds().get(i) + t.seconds().get(i) / 2;
            throughput.add(x, t.roundTripsPerSecond().get(i));
            if (t.p99Us().get(i) > 0) {
                p99.add(x, t.p99Us().get(i));
            }
            if (t.gcCollections().get(i) > 0) {
                gc.add(x, 0);
            }
            if (t.compilations().get(i) > 0) {
                compiled.add(x, 0);
            }
            if (t.deoptimizations().get(i) > 0) {
                deoptimized.add(x, 0);
            }
            if (t.lateMessages() != null && t.lateMessages().get(i) + t.droppedMessages().get(i) > 0) {
                lateOrDropped.add(x, 0);
            }
        }
        NumberAxis seconds = new NumberAxis("seconds since the repetition's first phase began");
        NumberAxis rate = new NumberAxis("round trips per second");
        LogAxis rtt = new LogAxis("p99 RTT (µs)");
        rtt.setSmallestValue(1);
        XYPlot plot = new XYPlot(new XYSeriesCollection(throughput), seconds, rate, lines(BAR));
        plot.setRangeAxis(1, rtt);
        plot.setDataset(1, new XYSeriesCollection(p99));
        plot.setRenderer(1, lines(WHISKER));
        plot.mapDatasetToRangeAxis(1, 1);
        XYSeriesCollection marks = new XYSeriesCollection();
        XYLineAndShapeRenderer markRenderer = new XYLineAndShapeRenderer(false, true);
        Color[] markColors = {PALETTE[2], PALETTE[1], PALETTE[3], PALETTE[4]};
        java.awt.Shape[] shapes = {new java.awt.geom.Rectangle2D.Double(-4, -4, 8, 8),
            new java.awt.geom.Ellipse2D.Double(-3, -3, 6, 6), ShapeUtils.createDownTriangle(5),
            ShapeUtils.createDiamond(4)};
        int k = 0;
        for (XYSeries s : List.of(gc, compiled, deoptimized, lateOrDropped)) {
            if (s.getItemCount() > 0) {
                marks.addSeries(s);
                markRenderer.setSeriesPaint(k, markColors[List.of(gc, compiled, deoptimized, lateOrDropped)
                        .indexOf(s)]);
                markRenderer.setSeriesShape(k, shapes[List.of(gc, compiled, deoptimized, lateOrDropped).indexOf(s)]);
                k++;
            }
        }
        plot.setDataset(2, marks);
        plot.setRenderer(2, markRenderer);
        if (t.warmupIntervals() > 0 && t.warmupIntervals() < t.size()) {
            ValueMarker measured = new ValueMarker(t.startSeconds().get(t.warmupIntervals()), TEXT,
                    new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 1f, new float[] {6f, 4f}, 0f));
            measured.setLabel("measured →");
            measured.setLabelPaint(TEXT);
            measured.setLabelAnchor(org.jfree.chart.ui.RectangleAnchor.TOP_RIGHT);
            measured.setLabelTextAnchor(org.jfree.chart.ui.TextAnchor.TOP_LEFT);
            plot.addDomainMarker(measured);
        }
        style(plot, List.of(seconds, rate, rtt));
        JFreeChart chart = new JFreeChart(null, JFreeChart.DEFAULT_TITLE_FONT, plot, true);
        styleLegend(chart);
        return render(chart, title, "one point per " + t.intervalMillis() + " ms interval; marks: what the process "
                + "did in the interval");
    }

    /**
     * Percentile spectra overlaid: RTT (µs) against 1 ÷ (1 − p) on a log scale, labelled as percentiles; the largest
     * RTT is drawn a decade right of the last percentile.
     *
     * @param series per series name, its spectrum
     */
    public static String spectrumChart(String title, Map<String, Spectrum> series) {
        XYSeriesCollection data = new XYSeriesCollection();
        series.forEach((name, s) -> {
            XYSeries xy = new XYSeries(name, false);
            int n = s.percentiles().size();
            for (int i = 0; i < n; i++) {
                double p = s.percentiles().get(i);
                double x = p < 100 ? 100 / (100 - p) : 10 * 100 / (100 - s.percentiles().get(Math.max(0, n - 2)));
                xy.add(x, s.us().get(i));
            }
            data.addSeries(xy);
        });
        LogAxis percentile = new LogAxis("percentile (1 ÷ (1 − p), log scale); the last point of each line: max");
        percentile.setSmallestValue(1);
        percentile.setNumberFormatOverride(new java.text.NumberFormat() {
            @Override
            public StringBuffer format(double x, StringBuffer b, java.text.FieldPosition pos) {
                return b.append(Format.percentile(100 - 100 / x));
            }

            @Override
            public StringBuffer format(long x, StringBuffer b, java.text.FieldPosition pos) {
                return format((double) x, b, pos);
            }

            @Override
            public Number parse(String source, java.text.ParsePosition pos) {
                return null;
            }
        });
        NumberAxis rtt = new NumberAxis("RTT (µs)");
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        for (int i = 0; i < series.size(); i++) {
            renderer.setSeriesPaint(i, PALETTE[i % PALETTE.length]);
            renderer.setSeriesStroke(i, new BasicStroke(2f));
        }
        XYPlot plot = new XYPlot(data, percentile, rtt, renderer);
        style(plot, List.of(percentile, rtt));
        JFreeChart chart = new JFreeChart(null, JFreeChart.DEFAULT_TITLE_FONT, plot, true);
        styleLegend(chart);
        return render(chart, title, "latency by percentile: each step right is one more nine of the tail");
    }

    private static XYLineAndShapeRenderer lines(Color color) {
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, false);
        r.setDrawSeriesLineAsPath(true); // one SVG path per line, not one element per segment
        r.setSeriesPaint(0, color);
        r.setSeriesStroke(0, new BasicStroke(2f));
        return r;
    }

    private static void style(XYPlot plot, List<? extends org.jfree.chart.axis.Axis> axes) {
        plot.setBackgroundPaint(TRANSPARENT);
        plot.setOutlineVisible(false);
        plot.setRangeGridlinePaint(GRID);
        plot.setDomainGridlinePaint(GRID);
        for (var axis : axes) {
            axis.setLabelPaint(TEXT);
            axis.setTickLabelPaint(TEXT);
            axis.setAxisLinePaint(TEXT);
            axis.setTickMarkPaint(TEXT);
        }
    }

    private static void styleLegend(JFreeChart chart) {
        chart.getLegend().setItemPaint(TEXT);
        chart.getLegend().setBackgroundPaint(TRANSPARENT);
    }

    private static String render(JFreeChart chart, String title, String subtitle) {
        chart.setTitle(new TextTitle(title, TITLE_FONT));
        chart.getTitle().setPaint(TEXT);
        TextTitle sub = new TextTitle(subtitle, SUBTITLE_FONT);
        sub.setPaint(TEXT);
        chart.addSubtitle(0, sub);
        chart.setBackgroundPaint(TRANSPARENT);
        chart.setAntiAlias(true);
        SVGGraphics2D g2 = new SVGGraphics2D(WIDTH, HEIGHT);
        chart.draw(g2, new Rectangle(0, 0, WIDTH, HEIGHT));
        return g2.getSVGDocument();
    }
}
