package io.loopbench.reports;

import java.util.Locale;

/** Number formats shared by reports: counts with thousands separators, microseconds with two decimals. */
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
}
