package io.loopbench.cli;

import io.loopbench.engine.spec.SpecField;

import java.util.Arrays;
import java.util.ListResourceBundle;

/**
 * The help of {@code measure}'s spec flags, each option naming its field as its {@code descriptionKey}: made from
 * {@link SpecField}, so that the command line says what the API and the validation say. Immutable.
 */
public final class SpecFieldHelp extends ListResourceBundle {

    @Override
    protected Object[][] getContents() {
        return Arrays.stream(SpecField.values()).map(f -> new Object[]{f.field(), f.summary()})
                .toArray(Object[][]::new);
    }
}
