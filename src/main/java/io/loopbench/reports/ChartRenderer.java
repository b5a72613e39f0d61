package io.loopbench.reports;

import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.CategoryLabelPositions;
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
 * Bar charts of medians with min–max whiskers, drawn by JFreeChart onto an SVG canvas (JFreeSVG). Colours are
 * chosen to read on light and dark backgrounds alike: a transparent background, mid-grey text and axes, and a
 * saturated blue bar with an orange whisker. Stateless and thread-safe.
 */
public final class ChartRenderer {

    /** One bar: the median over repetitions and its min–max range, in the chart's unit. */
    public record Bar(String label, double median, double min, double max) {
    }

    static final int WIDTH = 720;
    static final int HEIGHT = 360;
    private static final Color TRANSPARENT = new Color(0, 0, 0, 0);
    private static final Color TEXT = new Color(0x80, 0x80, 0x80);
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

    private static String render(JFreeChart chart, String title, String subtitle) {
        chart.setTitle(new TextTitle(title, new Font(Font.SANS_SERIF, Font.BOLD, 14)));
        chart.getTitle().setPaint(TEXT);
        TextTitle sub = new TextTitle(subtitle, new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        sub.setPaint(TEXT);
        chart.addSubtitle(0, sub);
        chart.setBackgroundPaint(TRANSPARENT);
        chart.setAntiAlias(true);
        SVGGraphics2D g2 = new SVGGraphics2D(WIDTH, HEIGHT);
        chart.draw(g2, new Rectangle(0, 0, WIDTH, HEIGHT));
        return g2.getSVGDocument();
    }
}
