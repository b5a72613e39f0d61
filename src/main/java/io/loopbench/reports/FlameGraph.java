package io.loopbench.reports;

import io.loopbench.engine.profile.CpuProfile;
import org.jfree.svg.SVGGraphics2D;
import org.jfree.svg.SVGHints;

import java.awt.Color;
import java.awt.Font;
import java.awt.geom.Rectangle2D;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A profile's call tree as a flame graph in SVG, drawn onto JFreeSVG's canvas as the other charts are (so that every
 * frame name is escaped as their text is): every thread together at the bottom, each thread's frames stacked above it,
 * a frame as wide as its samples with what it calls, its callees left to right by name. A frame narrower than
 * {@link #MIN_PX} is left out with everything it calls. Each frame is a {@code <rect>} in a group whose {@code <title>}
 * (the tooltip, where the SVG is opened itself) names it with its samples and their share; its fill tells Java, kernel,
 * native and thread frames apart. Stateless and thread-safe.
 */
final class FlameGraph {

    static final int WIDTH = 1200;
    static final int FRAME_HEIGHT = 16;
    /** The narrowest frame drawn, px. */
    static final double MIN_PX = 0.5;
    static final int MARGIN = 10;
    /** Room for the title, the subtitle and the legend above the frames, px. */
    private static final int TOP = 64;
    private static final Font LABEL_FONT = new Font(Font.MONOSPACED, Font.PLAIN, 11);
    /** A monospaced 11 px character's width, px: how much of a frame's name its rect holds. */
    private static final double CHAR_PX = 6.6;
    private static final Color LABEL = new Color(0x20, 0x20, 0x20);

    /** What a frame is, by its name as async-profiler writes it; each with its hue and saturation. */
    enum Kind {
        JAVA("Java", 0.30f, 0.35f), KERNEL("kernel", 0.08f, 0.60f), NATIVE("native", 0.0f, 0.45f),
        THREAD("thread", 0.60f, 0.15f);

        private final String words;
        private final float hue;
        private final float saturation;

        Kind(String words, float hue, float saturation) {
            this.words = words;
            this.hue = hue;
            this.saturation = saturation;
        }

        /** A thread's frame (a top of the tree), else Java ({@code package/Class.method}), kernel or native. */
        static Kind of(String frame, boolean thread) {
            return thread ? THREAD : frame.endsWith("_[k]") ? KERNEL : frame.contains("/") ? JAVA : NATIVE;
        }

        /** Its colour, a little more or less saturated by the frame's name, so that neighbours stand apart. */
        Color fill(String frame) {
            return Color.getHSBColor(hue, saturation + Math.floorMod(frame.hashCode(), 16) / 100f, 0.92f);
        }
    }

    private FlameGraph() {
    }

    static String svg(String title, CpuProfile profile) {
        int[] t = profile.tree();
        int n = t.length / 3;
        long[] total = new long[n];
        // node n stands for all threads together, the root below the threads' frames
        List<List<Integer>> callees = new ArrayList<>();
        for (int i = 0; i <= n; i++) {
            callees.add(new ArrayList<>());
        }
        for (int i = n - 1; i >= 0; i--) {
            total[i] += t[3 * i + 2];
            if (t[3 * i] >= 0) {
                total[t[3 * i]] += total[i];
            }
        }
        for (int i = 0; i < n; i++) {
            callees.get(t[3 * i] < 0 ? n : t[3 * i]).add(i);
        }
        double pxPerSample = profile.samples() == 0 ? 0 : (WIDTH - 2.0 * MARGIN) / profile.samples();
        // a node's left edge in samples and its depth (all threads: 0); parents come before their callees
        long[] left = new long[n + 1];
        int[] depth = new int[n + 1];
        int deepest = 0;
        Comparator<Integer> byName = Comparator.comparing(i -> profile.frames().get(t[3 * i + 1]));
        for (int k = -1; k < n; k++) {
            int node = k < 0 ? n : k;
            long at = left[node];
            callees.get(node).sort(byName);
            for (int c : callees.get(node)) {
                left[c] = at;
                depth[c] = depth[node] + 1;
                at += total[c];
                if (total[c] * pxPerSample >= MIN_PX) {
                    deepest = Math.max(deepest, depth[c]);
                }
            }
        }
        int height = TOP + (deepest + 1) * FRAME_HEIGHT + MARGIN;
        SVGGraphics2D g = new SVGGraphics2D(WIDTH, height);
        g.setPaint(ChartRenderer.TEXT);
        g.setFont(ChartRenderer.TITLE_FONT);
        g.drawString(safe(title), MARGIN, 20);
        g.setFont(ChartRenderer.SUBTITLE_FONT);
        g.drawString(safe(Format.count(profile.samples()) + " samples by " + profile.profiler() + " ("
                + profile.event() + "); a frame's width is its samples, its callees' included, and its callees "
                + "stand on it; frames under " + MIN_PX + " px left out"), MARGIN, 38);
        int x = MARGIN;
        for (Kind kind : Kind.values()) {
            g.setPaint(kind.fill(kind.words));
            String item = "■ " + kind.words;
            g.drawString(item, x, 54);
            x += g.getFontMetrics().stringWidth(item) + 16;
        }
        if (profile.samples() > 0) {
            frame(g, "all", "all threads", profile.samples(), profile.samples(), 0, 0, height, pxPerSample,
                    Kind.THREAD);
        }
        for (int i = 0; i < n; i++) {
            if (total[i] * pxPerSample >= MIN_PX) {
                String name = profile.frames().get(t[3 * i + 1]);
                frame(g, "frame-" + i, name, total[i], profile.samples(), left[i], depth[i], height, pxPerSample,
                        Kind.of(name, t[3 * i] < 0));
            }
        }
        return g.getSVGDocument();
    }

    /** One frame: its rect and as much of its name as fits, in a group titled with its name, samples and share. */
    private static void frame(SVGGraphics2D g, String id, String name, long samples, long all, long left, int depth,
                              int height, double pxPerSample, Kind kind) {
        double x = MARGIN + left * pxPerSample;
        double w = samples * pxPerSample;
        double y = height - MARGIN - (depth + 1) * FRAME_HEIGHT;
        String text = safe(name);
        g.setRenderingHint(SVGHints.KEY_BEGIN_GROUP, id);
        g.setRenderingHint(SVGHints.KEY_ELEMENT_TITLE, text + ": " + Format.count(samples)
                + (samples == 1 ? " sample, " : " samples, ") + Format.percent((double) samples / all) + " of all");
        g.setPaint(kind.fill(name));
        g.fill(new Rectangle2D.Double(x, y, w, FRAME_HEIGHT - 1));
        int fits = (int) ((w - 6) / CHAR_PX);
        if (fits >= 3) {
            g.setPaint(LABEL);
            g.setFont(LABEL_FONT);
            g.drawString(fits >= text.length() ? text : cut(text, fits - 2) + "..", (float) x + 3,
                    (float) y + FRAME_HEIGHT - 4);
        }
        g.setRenderingHint(SVGHints.KEY_END_GROUP, id);
    }

    /** The first {@code length} chars of {@code s}, without a surrogate pair's first half at the end. */
    private static String cut(String s, int length) {
        return s.substring(0, Character.isHighSurrogate(s.charAt(length - 1)) ? length - 1 : length);
    }

    /**
     * Text from a stored file as XML 1.0 can hold it (before JFreeSVG escapes it): control characters and unpaired
     * surrogates, which no XML document may contain, become U+FFFD.
     */
    static String safe(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean paired = Character.isHighSurrogate(c) ? i + 1 < s.length()
                    && Character.isLowSurrogate(s.charAt(i + 1))
                    : !Character.isLowSurrogate(c) || i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
            b.append(c < 0x20 || c == 0xFFFE || c == 0xFFFF || !paired ? '\uFFFD' : c);
        }
        return b.toString();
    }
}
