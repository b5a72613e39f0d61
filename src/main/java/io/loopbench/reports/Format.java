package io.loopbench.reports;

import io.loopbench.engine.Stat;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Number formats shared by reports: counts with thousands separators, microseconds with two decimals; and text from
 * a request or a stored file made inert in Markdown and in URLs.
 */
public final class Format {

    /** What Markdown (GFM tables and GitHub's rendering included) could read as structure inside a line. */
    private static final String MARKUP = "\\`*_[]<>&|#~";

    private Format() {
    }

    static String count(double v) {
        return String.format(Locale.ROOT, "%,.0f", v);
    }

    /** A count's median [min, max]: "990 [980, 1,000]". */
    static String countRange(Stat s) {
        return count(s.median()) + " [" + count(s.min()) + ", " + count(s.max()) + "]";
    }

    static String micros(double v) {
        return String.format(Locale.ROOT, "%,.2f", v);
    }

    static String oneDecimal(double v) {
        return String.format(Locale.ROOT, "%,.1f", v);
    }

    static String ratio(double v) {
        return String.format(Locale.ROOT, "%.2f×", v);
    }

    static String mib(double bytes) {
        return String.format(Locale.ROOT, "%,.1f", bytes / (1 << 20));
    }

    /** A percentile such as 99.9, with as many decimals as it has (at most five) and a per cent sign: "99.9 %". */
    static String percentile(double p) {
        java.math.BigDecimal d = java.math.BigDecimal.valueOf(p).setScale(5, java.math.RoundingMode.HALF_UP)
                .stripTrailingZeros();
        return (d.scale() < 0 ? d.setScale(0) : d).toPlainString() + " %";
    }

    /** A fraction as a percentage with two decimals: 0.005 → "0.50 %". */
    static String percent(double fraction) {
        return String.format(Locale.ROOT, "%.2f %%", fraction * 100);
    }

    /**
     * Text from a request or a stored file (an id, an error, a warning, a host's or JVM's strings, a target) for
     * inside one line of Markdown: a table cell, a heading, a list item after its own words. Every character that
     * could start a link, image, emphasis, code span, HTML, entity, cell break or heading is backslash-escaped, and
     * line breaks become spaces, so that it renders as exactly this text and the line's structure stays the
     * report's.
     */
    public static String text(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\n' || c == '\r') {
                b.append(' ');
                continue;
            }
            if (MARKUP.indexOf(c) >= 0) {
                b.append('\\');
            }
            b.append(c);
        }
        return b.toString();
    }

    /**
     * Text from a request or a stored file as a code span in a Markdown table cell: verbatim (backslashes do not
     * escape in code), so its fence is one backtick longer than its longest run of backticks; pipes escaped, which
     * GFM tables undo even in code; line breaks become spaces.
     */
    static String code(String s) {
        String flat = s.replace("\r\n", " ").replace('\r', ' ').replace('\n', ' ').replace("|", "\\|");
        int longest = 0;
        for (int i = 0, run = 0; i < flat.length(); i++) {
            run = flat.charAt(i) == '`' ? run + 1 : 0;
            longest = Math.max(longest, run);
        }
        String fence = "`".repeat(longest + 1);
        // a space each side keeps a backtick at either end off the fence; Markdown strips one space each side
        String pad = longest > 0 ? " " : "";
        return fence + pad + flat + pad + fence;
    }

    /** Text from a stored file as one URL path segment: nothing in it can end the segment, the URL or a link. */
    static String pathSegment(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
