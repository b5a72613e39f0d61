package io.loopbench.engine;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The repetition's stage boundaries, checked on the compiled main classes: {@link Repetition} runs every stage, in
 * its list, and measures nothing itself; each stage is reached only from there and talks to the others only through
 * the {@link RepetitionState}.
 */
class RepetitionStagesTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importEngine() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.loopbench.engine");
    }

    private static Set<String> stageClasses() {
        return classes.stream().filter(c -> c.isAssignableTo(RepetitionStage.class) && !c.isInterface())
                .map(JavaClass::getName).collect(Collectors.toSet());
    }

    @Test
    void theRepetitionRunsEveryStageOnceInItsList() {
        List<String> listed = Repetition.STAGES.stream().map(s -> s.getClass().getName()).toList();

        assertThat(listed).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(stageClasses());
        assertThat(listed).hasSizeGreaterThanOrEqualTo(6);
    }

    @Test
    void eachStageIsAFinalClassNamedForItsJobAndReachedOnlyFromTheRepetition() {
        classes().that().implement(RepetitionStage.class).and().areNotInterfaces()
                .should().haveSimpleNameEndingWith("Stage")
                .andShould().haveModifier(com.tngtech.archunit.core.domain.JavaModifier.FINAL)
                .andShould().onlyBeAccessed().byClassesThat(JavaClass.Predicates.simpleName("Repetition")
                        .or(JavaClass.Predicates.assignableTo(RepetitionStage.class))) // itself: noStageKnowsAnotherStage
                .check(classes);
    }

    @Test
    void noStageKnowsAnotherStage() {
        Set<String> stages = stageClasses();
        for (JavaClass stage : classes) {
            if (!stages.contains(stage.getName())) {
                continue;
            }
            List<String> others = stage.getDirectDependenciesFromSelf().stream().map(Dependency::getTargetClass)
                    .map(JavaClass::getName)
                    .filter(t -> stages.contains(t) && !t.equals(stage.getName())).distinct().toList();
            assertThat(others).as(stage.getSimpleName() + " depends on other stages").isEmpty();
        }
    }

    /** The figures and checks are the stages' work: the repetition only opens the pair, runs them and closes it. */
    @Test
    void theRepetitionMeasuresNothingItself() {
        noClasses().that().haveSimpleName("Repetition")
                .should().dependOnClassesThat().haveSimpleNameStartingWith("Latency")
                .orShould().dependOnClassesThat().haveSimpleName("PhaseRunner")
                .orShould().dependOnClassesThat().haveSimpleName("WarmupRounds")
                .orShould().dependOnClassesThat().haveSimpleName("JvmEvents")
                .orShould().dependOnClassesThat().haveSimpleName("TimelineRecording")
                .orShould().dependOnClassesThat().haveSimpleName("Histogram")
                .orShould().dependOnClassesThat().haveSimpleName("Fairness")
                .orShould().dependOnClassesThat().haveSimpleName("OpenLoad")
                .orShould().dependOnClassesThat().haveSimpleName("Checks")
                .check(classes);
        noClasses().that().haveSimpleName("RepetitionState")
                .should().dependOnClassesThat().implement(RepetitionStage.class)
                .check(classes);
    }
}
