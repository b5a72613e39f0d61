package io.loopbench.engine.spec;

import org.junit.jupiter.api.Test;

import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each spec field is declared once, in the spec's order, and the validation checks the range it declares: a value
 * just outside is refused with that range in words, its ends are not.
 */
class SpecFieldTest {

    @Test
    void oneDeclarationPerSpecComponentInItsOrderNamedAlike() {
        List<String> components = Arrays.stream(RunSpec.class.getRecordComponents()).map(RecordComponent::getName)
                .toList();
        assertThat(Arrays.stream(SpecField.values()).map(SpecField::field)).containsExactlyElementsOf(components);
        for (SpecField f : SpecField.values()) {
            assertThat(f.name()).isEqualTo(f.field().replaceAll("([A-Z])", "_$1").toUpperCase(Locale.ROOT));
            assertThat(f.help()).isNotBlank().endsWith(".");
            assertThat(f.range() == null).as(f + " has a range exactly when it is a number")
                    .isEqualTo(!Number.class.isAssignableFrom(f.type()));
            assertThat(f.defaultText()).isNotBlank();
            assertThat(SpecField.find(f.field())).containsSame(f);
        }
        assertThat(SpecField.PAYLOAD_BYTES.defaultValue()).isEqualTo(1024);
        assertThat(SpecField.WARMUP_SECONDS.defaultText()).isEqualTo("1");
        assertThat(SpecField.TLS_PROVIDER.defaultText()).isEqualTo("auto");
        assertThat(SpecField.WARMUP_MAX_SECONDS.defaultValue()).as("depends on warmupSeconds").isNull();
        assertThat(SpecField.EXECUTION.labels()).containsExactly("netty", "reactive", "virtual-threads");
        assertThat(SpecField.PAYLOAD_BYTES.range().text()).isEqualTo("16 … 65,507");
        assertThat(SpecField.SECONDS.range().text()).isEqualTo("more than 0 and at most 3,600");
    }

    @Test
    void theValidationRefusesJustOutsideEachDeclaredRangeAndAcceptsItsEnds() {
        for (SpecField f : SpecField.values()) {
            SpecField.Range r = f.range();
            if (r == null) {
                continue;
            }
            double step = r.whole() ? 1 : 0.5;
            List<Double> outside = r.minExcluded() ? List.of(r.min(), r.max() + step)
                    : List.of(r.min() - step, r.max() + step);
            for (double value : outside) {
                assertThat(violationsOf(f, value)).as(f + " = " + value).anySatisfy(v -> {
                    assertThat(v.field()).isEqualTo(f.field());
                    assertThat(v.allowed()).startsWith(r.text());
                });
            }
            for (double value : List.of(r.minExcluded() ? r.min() + step : r.min(), r.max())) {
                assertThat(violationsOf(f, value)).as(f + " = " + value)
                        .noneSatisfy(v -> assertThat(v.allowed()).startsWith(r.text()));
            }
        }
    }

    /** The violations of the default spec (open load, so that a rate is checked) with this one field set. */
    private static List<Violation> violationsOf(SpecField field, double value) {
        RunSpec base = RunSpec.builder().load(LoadModel.OPEN).rate(1000.0).build();
        RecordComponent[] components = RunSpec.class.getRecordComponents();
        Object[] args = new Object[components.length];
        Class<?>[] types = new Class<?>[components.length];
        try {
            for (int i = 0; i < components.length; i++) {
                types[i] = components[i].getType();
                args[i] = components[i].getAccessor().invoke(base);
            }
            args[field.ordinal()] = field.type() == Integer.class ? (Object) (int) value : (Object) value;
            if (field == SpecField.WARMUP_SECONDS) {
                args[SpecField.WARMUP_MAX_SECONDS.ordinal()] = null; // the larger of 10 and warmupSeconds
            }
            return ((RunSpec) RunSpec.class.getDeclaredConstructor(types).newInstance(args)).violations();
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
