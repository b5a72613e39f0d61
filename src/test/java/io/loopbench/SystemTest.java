package io.loopbench;

import org.junit.jupiter.api.Tag;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A system test: the service or its workers and agents as processes of their own, network namespaces, a browser, a
 * mounted file system. Run by {@code ./mvnw verify} (failsafe), after the unit and in-process tests that
 * {@code ./mvnw test} runs (surefire); docs/testing.md.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag("system")
public @interface SystemTest {
}
