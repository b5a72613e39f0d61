package io.loopbench.cli;

import io.loopbench.runs.RunRequest;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

/**
 * README and the reference in docs/ still say what the code does: every link between them leads to a file, every
 * {@code ./loopbench measure} and {@code ./loopbench compare} command they show parses with the CLI's own options, and the run README's first
 * example posts is a run request the API reads, every field known. (docs/performance.md quotes bench/ scripts,
 * each figure with the commit it ran at.)
 */
class DocsTest {

    private static final Pattern LINK = Pattern.compile("\\]\\(([^)#\\s]+)(#[^)]*)?\\)");
    /** A command up to the end of its line, a pipe, a redirection or a closing bracket. */
    private static final Pattern COMMAND = Pattern.compile("\\./loopbench (measure|compare|recommend)((?: [^`\\n|;)>#]*)?)");
    private static final Pattern POSTED = Pattern.compile("-d '(\\{[^']*})'");

    private static List<Path> documents() throws IOException {
        List<Path> docs = new ArrayList<>(List.of(Path.of("README.md")));
        try (Stream<Path> files = Files.list(Path.of("docs"))) {
            files.filter(p -> p.toString().endsWith(".md") && !p.endsWith("performance.md")
                    && !p.endsWith("report-example.md")).sorted().forEach(docs::add);
        }
        return docs;
    }

    /** A document's text with each shell line continuation ("\" before a line break) joined. */
    private static String text(Path doc) throws IOException {
        return Files.readString(doc).replace("\\\n", " ");
    }

    @Test
    void everyLinkLeadsToAFile() throws IOException {
        List<String> links = new ArrayList<>();
        for (Path doc : documents()) {
            Matcher m = LINK.matcher(Files.readString(doc));
            while (m.find()) {
                String target = m.group(1);
                if (target.contains("://")) {
                    continue;
                }
                links.add(target);
                Path resolved = doc.toAbsolutePath().getParent().resolve(target).normalize();
                assertThat(resolved).as("%s links to %s", doc, target).exists();
            }
        }
        assertThat(links).as("README's links into docs/").contains("docs/service.md", "docs/metrics.md",
                "docs/deployment.md", "docs/testing.md");
    }

    @Test
    void everyMeasureRecommendAndCompareCommandShownParses() throws IOException {
        List<String> commands = new ArrayList<>();
        for (Path doc : documents()) {
            Matcher m = COMMAND.matcher(text(doc));
            while (m.find()) {
                String[] args = m.group(2).trim().isEmpty() ? new String[0] : m.group(2).trim().split("\\s+");
                if (!m.group(1).equals("measure") && args.length == 0) {
                    continue; // the command named in prose, not run
                }
                commands.add(doc + ": " + m.group(0));
                CommandLine cli = new CommandLine(switch (m.group(1)) {
                    case "measure" -> new MeasureCommand();
                    case "recommend" -> new RecommendCommand();
                    default -> new CompareCommand();
                });
                LoopbenchCli.registerLabels(cli);
                assertThatCode(() -> cli.parseArgs(args)).as("%s: %s", doc, m.group(0)).doesNotThrowAnyException();
            }
        }
        assertThat(commands).as("README shows a measure, a recommend and a compare")
                .anyMatch(c -> c.startsWith("README.md") && c.contains("measure"))
                .anyMatch(c -> c.startsWith("README.md") && c.contains("recommend"))
                .anyMatch(c -> c.startsWith("README.md") && c.contains("compare"));
        // the check itself: an option the CLI does not have fails to parse
        assertThatCode(() -> new CommandLine(new MeasureCommand()).parseArgs("--no-such-option", "1"))
                .isInstanceOf(CommandLine.ParameterException.class);
    }

    @Test
    void theRunReadmePostsIsARequestTheApiReads() throws IOException {
        Matcher m = POSTED.matcher(text(Path.of("README.md")));
        assertThat(m.find()).as("README posts a run").isTrue();
        JsonMapper strict = JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

        RunRequest request = strict.readValue(m.group(1), RunRequest.class);

        assertThat(request.violations()).isEmpty();
        assertThatCode(() -> strict.readValue("{\"protocl\":\"tcp\"}", RunRequest.class))
                .as("the check itself: a misspelt field fails").isInstanceOf(Exception.class);
    }
}
