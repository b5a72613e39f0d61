package io.loopbench;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packages keep their layering, checked on the compiled main classes: the measurement engine, the verdicts'
 * statistics and the race use nothing of the service (Spring, the web, storage or any feature), the shared infrastructure
 * ({@code jobs}, {@code storage}, {@code events}) uses no feature, the service and the CLI meet only in the worker's protocol, and no
 * two top-level packages depend on each other in a cycle.
 */
class LayeringTest {

    private static final String[] SERVICE = {"io.loopbench.runs..", "io.loopbench.matrices..",
            "io.loopbench.reports..", "io.loopbench.echo..", "io.loopbench.agents..", "io.loopbench.web..",
            "io.loopbench.system..", "io.loopbench.jobs..", "io.loopbench.storage..", "io.loopbench.events..",
            "io.loopbench.cli..", "io.loopbench.gate..", "io.loopbench.recommendations.."};

    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.loopbench");
    }

    @Test
    void theEngineAndTheVerdictsUseNothingOfTheService() {
        noClasses().that().resideInAnyPackage("io.loopbench.engine..", "io.loopbench.verdicts..",
                        "io.loopbench.race..")
                .should().dependOnClassesThat().resideInAnyPackage(SERVICE)
                .orShould().dependOnClassesThat().resideInAnyPackage("org.springframework..", "jakarta.servlet..")
                .check(classes);
    }

    @Test
    void jobsStorageAndEventsUseNoFeature() {
        noClasses().that().resideInAnyPackage("io.loopbench.jobs..", "io.loopbench.storage..",
                        "io.loopbench.events..")
                .should().dependOnClassesThat().resideInAnyPackage("io.loopbench.runs..", "io.loopbench.matrices..",
                        "io.loopbench.reports..", "io.loopbench.echo..", "io.loopbench.agents..",
                        "io.loopbench.cli..")
                .check(classes);
    }

    /**
     * The service and the CLI both talk to a measuring JVM through the worker's protocol and never through each
     * other; the worker itself knows only the engine.
     */
    @Test
    void theServiceAndTheCliMeetOnlyInTheWorkerPackage() {
        noClasses().that().resideOutsideOfPackage("io.loopbench.cli..")
                .should().dependOnClassesThat().resideInAPackage("io.loopbench.cli..")
                .check(classes);
        noClasses().that().resideInAPackage("io.loopbench.cli..")
                .should().dependOnClassesThat().resideInAnyPackage("io.loopbench.runs..", "io.loopbench.matrices..",
                        "io.loopbench.recommendations..")
                .check(classes);
        noClasses().that().resideInAPackage("io.loopbench.worker..")
                .should().dependOnClassesThat().resideInAnyPackage(SERVICE)
                .orShould().dependOnClassesThat().resideInAnyPackage("org.springframework..")
                .check(classes);
    }

    @Test
    void noTwoTopLevelPackagesDependOnEachOtherInACycle() {
        slices().matching("io.loopbench.(*)..").should().beFreeOfCycles().check(classes);
    }

    /** The check itself: a rule the code breaks is reported (the service's features do use the engine). */
    @Test
    void aRuleTheCodeBreaksFails() {
        ArchRule broken = noClasses().that().resideInAPackage("io.loopbench.runs..")
                .should().dependOnClassesThat().resideInAPackage("io.loopbench.engine..");
        EvaluationResult result = broken.evaluate(classes);
        assertThat(result.hasViolation()).isTrue();
    }
}
