package io.loopbench.runs;

import io.loopbench.engine.spec.Labeled;
import io.loopbench.engine.spec.SpecField;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.media.Schema;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.stereotype.Component;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The OpenAPI schema of a run request's spec fields (and of the spec every result echoes), made from {@link SpecField}: description (where the field
 * applies, its help, a default that depends on other fields), range, default and allowed values, so that the API says
 * what the validation checks and the command line's help says. Adds what only the service does (its limits, its
 * allow-list). Stateless.
 */
@Component
class RunRequestSchema implements OpenApiCustomizer {

    /** The request, and the spec as every result echoes it. */
    private static final List<String> SCHEMAS = List.of("RunRequest", "RunSpec");

    /**
     * The other requests' fields that take a run spec field's values (a matrix's lists, a profile's pair, a race's
     * thread counts): each gets that field's range, so that the range is declared once, in {@link SpecField}.
     */
    private static final Map<String, Map<String, SpecField>> TAKEN_FROM_THE_SPEC = Map.of(
            "MatrixSpec", Map.of("payloads", SpecField.PAYLOAD_BYTES, "ioThreads", SpecField.IO_THREADS,
                    "work", SpecField.WORK, "datagramsPerRead", SpecField.DATAGRAMS_PER_READ,
                    "seconds", SpecField.SECONDS, "warmupSeconds", SpecField.WARMUP_SECONDS,
                    "warmupMaxSeconds", SpecField.WARMUP_MAX_SECONDS, "rates", SpecField.RATE,
                    "repetitions", SpecField.REPETITIONS),
            "Profile", Map.of("clients", SpecField.CLIENTS, "window", SpecField.WINDOW),
            "RecommendationSpec", Map.of("ioThreads", SpecField.IO_THREADS));

    /** What the service adds to a field's help. */
    private static final Map<SpecField, String> SERVICE_NOTES = Map.of(
            SpecField.SECONDS, " The service's limit on the warm-up at its longest (warmupSeconds, or warmupMaxSeconds "
                    + "with auto warm-up) + seconds is loopbench.limits.max-seconds-per-repetition (default 600).",
            SpecField.TARGET, " Only loopback targets and targets inside loopbench.network.allowed-cidrs are "
                    + "accepted, since this API generates load.");

    @Override
    public void customise(OpenAPI api) {
        if (api.getComponents() == null || api.getComponents().getSchemas() == null) {
            return;
        }
        boolean openApi31 = api.getOpenapi() != null && api.getOpenapi().startsWith("3.1");
        for (String name : SCHEMAS) {
            Schema<?> schema = api.getComponents().getSchemas().get(name);
            if (schema == null || schema.getProperties() == null) {
                continue;
            }
            for (SpecField f : SpecField.values()) {
                Schema<?> p = schema.getProperties().get(f.field());
                if (p != null) {
                    describe(p, f, openApi31);
                }
            }
        }
        TAKEN_FROM_THE_SPEC.forEach((name, fields) -> {
            Schema<?> schema = api.getComponents().getSchemas().get(name);
            if (schema != null && schema.getProperties() != null) {
                fields.forEach((property, f) -> {
                    Schema<?> p = schema.getProperties().get(property);
                    if (p != null) {
                        ranged(p, f, openApi31);
                    }
                });
            }
        });
    }

    /** A field that takes {@code f}'s values, each when it is a list: its range, in the schema and in its help. */
    @SuppressWarnings({"rawtypes"})
    private static void ranged(Schema p, SpecField f, boolean openApi31) {
        boolean list = p.getItems() != null;
        Schema values = list ? p.getItems() : p;
        range(values, f, openApi31);
        String help = p.getDescription() == null ? "" : p.getDescription().strip();
        p.setDescription(help + (help.isEmpty() || help.endsWith(".") ? "" : ".") + (help.isEmpty() ? "" : " ")
                + (list ? "Each " : "Allowed: ") + f.range().text() + ".");
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void describe(Schema p, SpecField f, boolean openApi31) {
        Object value = f.defaultValue();
        p.setDescription((f.appliesTo() != null ? f.appliesTo() + " only. " : "") + f.help()
                + (value == null ? " Default: " + f.defaultText() + "." : "")
                + SERVICE_NOTES.getOrDefault(f, ""));
        if (f.range() != null) {
            range(p, f, openApi31);
        }
        if (!f.labels().isEmpty()) {
            p.setEnum(new ArrayList<>(f.labels()));
        }
        if (value != null) {
            p.setDefault(value instanceof Labeled l ? l.label() : value);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void range(Schema p, SpecField f, boolean openApi31) {
        BigDecimal min = decimal(f.range().min());
        if (f.range().minExcluded() && openApi31) {
            p.setExclusiveMinimumValue(min);
        } else {
            p.setMinimum(min);
            p.setExclusiveMinimum(f.range().minExcluded() ? Boolean.TRUE : null);
        }
        p.setMaximum(decimal(f.range().max()));
    }

    /** A whole number as one (3600, not 3.6E+3), another as it is. */
    private static BigDecimal decimal(double v) {
        return v == Math.rint(v) ? BigDecimal.valueOf((long) v) : BigDecimal.valueOf(v);
    }
}
