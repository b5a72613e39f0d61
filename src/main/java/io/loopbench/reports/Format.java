package io.loopbench.reports;

import java.util.Locale;

/**
 * Number formats shared by reports: counts with thousands separators, microseconds with two decimals; and text made
 * safe for a Markdown table cell.
 */
final class Format {

    private Format() {
    }

    static String count(double v) {
        return String.format(Locale.ROOT, "%,.0f", v);
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

    /** A fraction as a percentage with two decimals: 0.005 → "0.50 %". */
    static String percent(double fraction) {
        return String.format(Locale.ROOT, "%.2f %%", fraction * 100);
    }

    /** Text for one Markdown table cell or list item: pipes escaped, on one line. */
    static String cell(String s) {
        return s == null ? "" : s.replace("|", "\\|").replace("\n", " ");
    }
}
