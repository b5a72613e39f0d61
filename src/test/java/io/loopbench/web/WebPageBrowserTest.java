package io.loopbench.web;

import io.loopbench.SystemTest;
import io.loopbench.cluster.AgentShare;
import io.loopbench.cluster.AgentStart;
import io.loopbench.cluster.ClockOffset;
import io.loopbench.cluster.PhaseSpan;
import io.loopbench.cluster.Placement;
import io.loopbench.cluster.StartReport;
import io.loopbench.engine.Checks;
import io.loopbench.engine.EchoPairSetup;
import io.loopbench.engine.ErrorCounts;
import io.loopbench.engine.JvmActivity;
import io.loopbench.engine.RepetitionResult;
import io.loopbench.engine.ResourceUse;
import io.loopbench.engine.RoundTripTimes;
import io.loopbench.engine.Summary;
import io.loopbench.engine.Throughput;
import io.loopbench.engine.latency.Latency;
import io.loopbench.engine.latency.LatencyMode;
import io.loopbench.engine.process.CpuUsage;
import io.loopbench.engine.process.GcActivity;
import io.loopbench.engine.process.MemoryUsage;
import io.loopbench.engine.profile.CallTree;
import io.loopbench.engine.profile.CpuProfile;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Transport;
import io.loopbench.jobs.RunStatus;
import io.loopbench.matrices.MatrixRecord;
import io.loopbench.matrices.MatrixSpec;
import io.loopbench.matrices.MatrixStore;
import io.loopbench.recommendations.RecommendationRecord;
import io.loopbench.recommendations.RecommendationStore;
import io.loopbench.runs.HostsRepetition;
import io.loopbench.runs.Isolation;
import io.loopbench.runs.RunRecord;
import io.loopbench.runs.RunStore;
import io.loopbench.system.SystemInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.ObjectReader;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

/**
 * The web page at {@code /} in headless Chromium, against the real service on a random port: a run and a matrix
 * started from their forms and followed live to their results, a comparison of two runs, a run across hosts (written
 * into the store) with its placement and per-agent tables, recommendations (asked from their form, followed live and
 * cancelled; a finished one written into the store), where stored runs' and a matrix case's CPU time went (layers,
 * threads, a flame graph that zooms, and where two runs differ), and the forms' handling of values the service
 * refuses. Each test is skipped, saying what is missing, when Chromium or ChromeDriver is not installed (see
 * docs/testing.md, "Browser tests"); the check runs per test (in {@link Chromium}), not in a {@code @BeforeAll}:
 * Surefire reports a class skipped there as no tests at all, without the reason.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
// Close this context (its loopbench-runner and loopbench-sse-ticker threads) after the class: the engine's leak
// tests count live threads named loopbench-* and fail if a cached context from an earlier class still has them.
@SystemTest
@DirtiesContext
class WebPageBrowserTest {

    private static final Duration UI = Duration.ofSeconds(15);
    private static final Duration RUN = Duration.ofSeconds(90);
    private static final Set<String> FINISHED = Set.of("succeeded", "failed", "cancelled", "interrupted");

    @TempDir
    static Path dataDirectory;

    @DynamicPropertySource
    static void dataDirectory(DynamicPropertyRegistry registry) {
        registry.add("loopbench.data-directory", dataDirectory::toString);
    }

    @RegisterExtension
    final Chromium chromium = new Chromium();

    @LocalServerPort
    int port;
    @Autowired
    ObjectMapper json;
    @Autowired
    RunStore runs;
    @Autowired
    RecommendationStore recommendations;
    @Autowired
    MatrixStore matrices;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @AfterEach
    void closeHttpClient() {
        // now, not at some later garbage collection: later tests count this JVM's threads and sockets
        http.close();
    }

    @Test
    void aShortRunStartedFromTheFormIsFollowedLiveToSucceededWithItsSummaryAndCharts() {
        WebDriver browser = chromium.driver();
        browser.get(url("/"));
        wait(browser, UI).until(d -> !d.findElements(By.cssSelector("#runs-list table, #runs-empty")).isEmpty());
        browser.findElement(By.cssSelector("nav a[href='#/runs/new']")).click();
        wait(browser, UI).until(d -> !d.findElements(By.id("run-form")).isEmpty());

        new Select(browser.findElement(By.id("run-input-isolation"))).selectByValue("in-process");
        // fixed: exactly the 0.3 s typed below, where auto would warm up until steady (up to 10 s)
        new Select(browser.findElement(By.id("run-input-warmupMode"))).selectByValue("fixed");
        type(browser, "seconds", "1");
        type(browser, "warmupSeconds", "0.3");
        type(browser, "repetitions", "1");
        type(browser, "clients", "2");
        type(browser, "window", "2");
        browser.findElement(By.id("run-submit")).click();

        wait(browser, UI).until(d -> d.getCurrentUrl().contains("#/runs/") && !d.getCurrentUrl().endsWith("/new"));
        String id = browser.getCurrentUrl().replaceFirst(".*#/runs/", "");

        // follow it: note every progress line the page shows until it says the run has finished
        List<String> progressSeen = new ArrayList<>();
        String status = wait(browser, RUN).pollingEvery(Duration.ofMillis(50)).until(d -> {
            List<WebElement> p = d.findElements(By.id("run-progress-text"));
            if (!p.isEmpty() && p.getFirst().isDisplayed()) {
                String text = p.getFirst().getText();
                if (text.startsWith("Repetition") && !progressSeen.contains(text)) {
                    progressSeen.add(text);
                }
            }
            String s = d.findElement(By.cssSelector("main .view")).getDomAttribute("data-status");
            return s != null && FINISHED.contains(s) ? s : null;
        });
        assertThat(status).as("run %s; page says: %s", id, errorText(browser)).isEqualTo("succeeded");
        assertThat(browser.findElement(By.id("run-status")).getText()).isEqualTo("succeeded");
        assertThat(progressSeen).as("live progress lines shown while it ran").isNotEmpty()
                .allSatisfy(line -> assertThat(line).matches("Repetition 1 of 1 · \\w+ · .* elapsed · about .* left"));
        assertThat(browser.findElement(By.id("run-progress")).isDisplayed()).isFalse();

        // its summary: every metric as median [min, max]
        WebElement summary = wait(browser, UI).until(d -> d.findElement(By.cssSelector("#run-summary table")));
        String roundTrips = summary.findElement(By.xpath(".//tr[th[.='Round trips/s']]/td")).getText();
        assertThat(roundTrips).matches("[\\d,]+ \\[[\\d,]+, [\\d,]+]");
        assertThat(summary.getText()).contains("RTT p99", "µs", "CPU", "Peak RSS", "JIT compilations",
                "Jain's index", "Window fill ratio", "Warm-up");
        assertThat(summary.findElements(By.cssSelector("thead th")).stream().map(WebElement::getText).toList())
                .containsExactly("Metric", "Median [min, max]", "Pooled");
        assertThat(summary.findElement(By.xpath(".//tr[th[.='RTT p99']]/td[2]")).getText()).endsWith("µs");
        assertThat(browser.findElements(By.cssSelector("#run-repetitions table.repetitions tbody tr"))).hasSize(1);
        // each repetition's self-checks: JIT, fairness, window fill, stamp gap, the warm-up that ran and why it stopped
        String checks = browser.findElement(By.cssSelector("#run-checks tbody tr")).getText();
        assertThat(checks).containsPattern("quiet|not quiet").containsPattern("µs \\(\\d+ % of RTT p50\\)")
                .contains("Jain", "fixed, stopped because time");

        // its charts, drawn
        for (String chart : List.of("throughput", "p99")) {
            WebElement img = wait(browser, UI).until(d -> d.findElement(By.id("chart-" + chart)));
            assertThat(img.getDomAttribute("src")).isEqualTo("/api/runs/" + id + "/charts/" + chart + ".svg");
            wait(browser, UI).until(d -> Boolean.TRUE.equals(js(d).executeScript(
                    "return arguments[0].complete && arguments[0].naturalWidth > 0", img)));
        }
        // and links to its report
        assertThat(wait(browser, UI).until(d -> d.findElement(By.id("run-report-html"))).getDomAttribute("href"))
                .isEqualTo("/api/runs/" + id + "/report?format=html");
        assertThat(browser.findElement(By.id("run-report-md")).getDomAttribute("href"))
                .isEqualTo("/api/runs/" + id + "/report?format=md");
        assertThat(pageErrors(browser)).isEmpty();
    }

    @Test
    void aValueOutOfRangeIsShownNextToItsFieldAndNoRunIsCreated() throws Exception {
        long runsBefore = runCount();
        WebDriver browser = chromium.driver();
        browser.get(url("/#/runs/new"));
        wait(browser, UI).until(d -> !d.findElements(By.id("run-form")).isEmpty());
        // the field shows its default and range, as /v3/api-docs gives them
        assertThat(browser.findElement(By.id("run-help-payloadBytes")).getText())
                .contains("Default 1,024", "allowed 16 … 65,507");

        type(browser, "payloadBytes", "5");
        browser.findElement(By.id("run-submit")).click();

        WebElement error = wait(browser, UI).until(d -> {
            WebElement e = d.findElement(By.id("run-error-payloadBytes"));
            return e.isDisplayed() ? e : null;
        });
        assertThat(error.getText()).contains("payloadBytes = 5 is out of range", "16 … 65,507");
        WebElement field = browser.findElement(By.id("run-field-payloadBytes"));
        assertThat(field.findElements(By.id("run-error-payloadBytes"))).as("the error sits in the field's box")
                .hasSize(1);
        WebElement input = browser.findElement(By.id("run-input-payloadBytes"));
        assertThat(input.getDomAttribute("aria-invalid")).isEqualTo("true");
        assertThat(input.getDomAttribute("aria-describedby")).contains("run-error-payloadBytes");
        assertThat(browser.findElements(By.cssSelector(".field-error")).stream().filter(WebElement::isDisplayed)
                .map(e -> e.getDomAttribute("id")).toList()).containsExactly("run-error-payloadBytes");
        assertThat(browser.findElement(By.id("run-form-problems")).getText()).contains("The run was not started");

        assertThat(browser.getCurrentUrl()).endsWith("#/runs/new");
        assertThat(runCount()).as("runs stored").isEqualTo(runsBefore);
        assertThat(pageErrors(browser)).isEmpty();
    }

    @Test
    void aValueOfTheWrongTypeIsShownAtTheTopAsTheServiceWordsIt() throws Exception {
        long runsBefore = runCount();
        WebDriver browser = chromium.driver();
        browser.get(url("/#/runs/new"));
        wait(browser, UI).until(d -> !d.findElements(By.id("run-form")).isEmpty());

        type(browser, "clients", "many");
        browser.findElement(By.id("run-submit")).click();

        WebElement top = wait(browser, UI).until(d -> {
            WebElement e = d.findElement(By.id("run-form-problems"));
            return e.isDisplayed() ? e : null;
        });
        assertThat(top.getText()).contains("The run was not started",
                "field 'clients': 'many' is not a value of type integer");
        assertThat(browser.findElement(By.id("run-error-clients")).getText()).contains("'many'");
        assertThat(runCount()).isEqualTo(runsBefore);

        // a fraction in a whole-number field is caught before sending (the service would round it down)
        type(browser, "clients", "1.5");
        browser.findElement(By.id("run-submit")).click();
        wait(browser, UI).until(d -> d.findElement(By.id("run-error-clients")).getText()
                .contains("not a whole number"));
        assertThat(runCount()).isEqualTo(runsBefore);
        assertThat(pageErrors(browser)).isEmpty();
    }

    @Test
    void everyViewRendersWithLabelledInputsAndNoScriptErrorInLightAndDarkMode() {
        WebDriver browser = chromium.driver();
        for (String view : List.of("/#/", "/#/runs/new", "/#/compare", "/#/matrices/new", "/#/runs/no-such-run",
                "/#/recommendations", "/#/recommendations/new", "/#/recommendations/no-such-recommendation")) {
            browser.get(url(view));
            wait(browser, UI).until(d -> !d.findElements(By.cssSelector("main h1")).isEmpty()
                    && d.findElements(By.xpath("//main//p[starts-with(., 'Loading') or starts-with(., 'Reading')]"))
                    .isEmpty());
            // every input, select and text area can be named by assistive technology
            @SuppressWarnings("unchecked")
            List<String> unlabelled = (List<String>) js(browser).executeScript("""
                    return [...document.querySelectorAll('main input, main select, main textarea')]
                      .filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label'))
                      .map(e => e.id || e.name || e.outerHTML);""");
            assertThat(unlabelled).as("inputs without a label on %s", view).isEmpty();
            assertThat(pageErrors(browser)).as("script errors on %s", view).isEmpty();
        }
        // the home page lists the matrices too (none yet, or a table)
        browser.get(url("/#/"));
        wait(browser, UI).until(d -> d.findElement(By.id("matrices-list")).getText().contains("No matrices yet")
                || !d.findElements(By.cssSelector("#matrices-list table")).isEmpty());
        browser.get(url("/#/runs/no-such-run"));
        wait(browser, UI).until(d -> d.findElement(By.tagName("main")).getText().contains("No such run."));

        // a view's reads end with it: leaving the runs list aborts the signal its reads carried, and nothing the
        // abort rejects reaches the page as an error (the page's own fetch, watched from here, not from its code)
        browser.get(url("/#/"));
        js(browser).executeScript("""
                window.readsSeen = [];
                const fetchOf = window.fetch;
                window.fetch = (url, init) => { window.readsSeen.push({url: String(url), signal: init && init.signal});
                  return fetchOf(url, init); };""");
        wait(browser, UI).until(d -> (Boolean) js(d).executeScript(
                "return window.readsSeen.some(r => r.url.startsWith('/api/runs?limit=20'))"));
        js(browser).executeScript("location.hash = '#/compare'");
        wait(browser, UI).until(d -> !d.findElements(By.id("compare-baseline")).isEmpty());
        assertThat((Boolean) js(browser).executeScript("""
                return window.readsSeen.filter(r => r.url.startsWith('/api/runs?limit=20'))
                  .every(r => r.signal && r.signal.aborted);""")).as("the runs list's reads were aborted").isTrue();
        assertThat(pageErrors(browser)).as("an aborted read is no error").isEmpty();

        // colours follow prefers-color-scheme
        browser.get(url("/#/runs/new"));
        wait(browser, UI).until(d -> !d.findElements(By.id("run-form")).isEmpty());
        String light = background(browser);
        chromium.driver().executeCdpCommand("Emulation.setEmulatedMedia",
                Map.of("features", List.of(Map.of("name", "prefers-color-scheme", "value", "dark"))));
        String dark = background(browser);
        assertThat(light).isEqualTo("rgb(255, 255, 255)");
        assertThat(dark).isEqualTo("rgb(13, 17, 23)");
    }

    @Test
    void aMatrixStartedFromTheFormIsFollowedLiveToItsCasesAndReport() {
        WebDriver browser = chromium.driver();
        browser.get(url("/#/matrices/new"));
        wait(browser, UI).until(d -> !d.findElements(By.id("matrix-form")).isEmpty());
        // one case: every list given one value
        for (String box : List.of("protocols-tcp", "ioModels-shared", "transports-auto", "windowModes-sliding",
                "executions-netty")) {
            browser.findElement(By.id("matrix-input-" + box)).click();
        }
        typeInto(browser, "matrix-input-payloads", "256");
        typeInto(browser, "matrix-input-profiles", "2x2");
        typeInto(browser, "matrix-input-ioThreads", "1");
        typeInto(browser, "matrix-input-work", "0");
        typeInto(browser, "matrix-input-seconds", "1");
        typeInto(browser, "matrix-input-warmupSeconds", "0");
        new Select(browser.findElement(By.id("matrix-input-warmupMode"))).selectByValue("fixed");
        typeInto(browser, "matrix-input-repetitions", "1");
        new Select(browser.findElement(By.id("matrix-input-isolation"))).selectByValue("in-process");
        // pool sizes multiply the executor offload alone: loop + executor × 2 sizes is 3 cases; no offload listed, 1
        typeInto(browser, "matrix-input-offloadThreads", "4, 16");
        assertThat(browser.findElement(By.id("matrix-cases")).getText()).isEqualTo("1 case.");
        for (String box : List.of("offloads-loop", "offloads-executor")) {
            browser.findElement(By.id("matrix-input-" + box)).click();
        }
        assertThat(browser.findElement(By.id("matrix-cases")).getText()).isEqualTo("3 cases.");
        for (String box : List.of("offloads-loop", "offloads-executor")) {
            browser.findElement(By.id("matrix-input-" + box)).click();
        }
        assertThat(browser.findElement(By.id("matrix-cases")).getText()).isEqualTo("1 case.");
        browser.findElement(By.id("matrix-submit")).click();

        wait(browser, UI).until(d -> d.getCurrentUrl().matches(".*#/matrices/[^/]+$")
                && !d.getCurrentUrl().endsWith("/new"));
        String id = browser.getCurrentUrl().replaceFirst(".*#/matrices/", "");
        List<String> progressSeen = new ArrayList<>();
        String status = wait(browser, RUN).pollingEvery(Duration.ofMillis(50)).until(d -> {
            List<WebElement> p = d.findElements(By.id("matrix-progress-text"));
            if (!p.isEmpty() && p.getFirst().isDisplayed() && p.getFirst().getText().startsWith("Case")
                    && !progressSeen.contains(p.getFirst().getText())) {
                progressSeen.add(p.getFirst().getText());
            }
            String s = d.findElement(By.cssSelector("main .view")).getDomAttribute("data-status");
            return s != null && FINISHED.contains(s) ? s : null;
        });
        assertThat(status).as("matrix %s", id).isEqualTo("succeeded");
        assertThat(progressSeen).as("live progress lines").isNotEmpty()
                .allSatisfy(line -> assertThat(line).startsWith("Case 1 of 1 · repetition 1 · step 1 of 1 · "));

        List<WebElement> rows = browser.findElements(By.cssSelector("#matrix-cases-table tbody tr"));
        assertThat(rows).hasSize(1);
        assertThat(rows.getFirst().getText()).contains("tcp 256 B 2×2 shared×1", "1 of 1", "ok");
        // the report, with its charts, inside the page
        String report = "/api/matrices/" + id + "/report?format=html";
        assertThat(wait(browser, UI).until(d -> d.findElement(By.id("matrix-report-html"))).getDomAttribute("href"))
                .isEqualTo(report);
        WebElement frame = browser.findElement(By.cssSelector("#matrix-report iframe"));
        assertThat(frame.getDomAttribute("src")).isEqualTo(report);
        browser.switchTo().frame(frame);
        WebElement chart = wait(browser, UI).until(d -> d.findElement(By.cssSelector("img[src*='throughput']")));
        wait(browser, UI).until(d -> Boolean.TRUE.equals(js(d).executeScript(
                "return arguments[0].complete && arguments[0].naturalWidth > 0", chart)));
        browser.switchTo().defaultContent();
        assertThat(pageErrors(browser)).isEmpty();
    }

    @Test
    void aMatrixRuleOnTwoListsIsShownNextToBoth() {
        WebDriver browser = chromium.driver();
        browser.get(url("/#/matrices/new"));
        wait(browser, UI).until(d -> !d.findElements(By.id("matrix-form")).isEmpty());
        browser.findElement(By.id("matrix-input-executions-virtual-threads")).click();
        browser.findElement(By.id("matrix-input-ioModels-sharded")).click();
        browser.findElement(By.id("matrix-submit")).click();

        WebElement error = wait(browser, UI).until(d -> {
            WebElement e = d.findElement(By.id("matrix-error-executions"));
            return e.isDisplayed() ? e : null;
        });
        assertThat(error.getText()).contains("virtual-threads runs only with the shared IO model");
        assertThat(browser.findElement(By.id("matrix-error-ioModels")).isDisplayed()).isTrue();
        assertThat(browser.getCurrentUrl()).endsWith("#/matrices/new");
        assertThat(pageErrors(browser)).isEmpty();
    }

    @Test
    void aNestedObjectIsTypedAsJsonAndReachesTheServiceAsAnObject() {
        WebDriver browser = chromium.driver();
        browser.get(url("/#/matrices/new"));
        wait(browser, UI).until(d -> !d.findElements(By.id("matrix-form")).isEmpty());
        assertThat(browser.findElement(By.id("matrix-help-agentGroups")).getText()).contains("JSON");

        typeInto(browser, "matrix-input-agentGroups", "[{\"server\": \"agent-a\"");
        browser.findElement(By.id("matrix-submit")).click();
        WebElement notJson = wait(browser, UI).until(d -> {
            WebElement e = d.findElement(By.id("matrix-error-agentGroups"));
            return e.isDisplayed() ? e : null;
        });
        assertThat(notJson.getText()).contains("agentGroups: not JSON");

        // well-formed: the service judges it (clustering is off here), naming the group's field
        typeInto(browser, "matrix-input-agentGroups", "[{\"server\": \"agent-a\", \"clientAgents\": [\"agent-b\"]}]");
        assertThat(browser.findElement(By.id("matrix-cases")).getText()).as("groups say where, not which cases")
                .doesNotContain("agentGroups");
        browser.findElement(By.id("matrix-submit")).click();
        WebElement refused = wait(browser, UI).until(d -> {
            WebElement e = d.findElement(By.id("matrix-error-agentGroups"));
            return e.isDisplayed() && e.getText().contains("clustering is off") ? e : null;
        });
        assertThat(refused.getText()).contains("agent-a");
        assertThat(browser.getCurrentUrl()).endsWith("#/matrices/new");
        assertThat(pageErrors(browser)).isEmpty();
    }

    @Test
    void aRunsTimelineGrowsLiveThenEachRepetitionsTimelineAndTheSpectrumAreShown() throws Exception {
        HttpResponse<String> posted = http.send(HttpRequest.newBuilder(URI.create(url("/api/runs")))
                .header("Content-Type", "application/json").timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.ofString("""
                        {"clients":2,"window":2,"payloadBytes":256,"warmupSeconds":0.3,"warmupMode":"fixed",
                         "seconds":1.5,"repetitions":2,"isolation":"in-process"}""")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(posted.statusCode()).as(posted.body()).isEqualTo(202);
        String id = json.readTree(posted.body()).get("id").asString();
        WebDriver browser = chromium.driver();
        browser.get(url("/#/runs/" + id));
        // the page itself records every interval count it shows: how often this test's polls get through to a
        // busy browser is not the subject (a loaded run saw only 10, then 9)
        js(browser).executeScript("""
                window.intervalsShown = [];
                new MutationObserver(() => {
                  const e = document.getElementById('run-timeline-live-text');
                  const n = e ? Number(e.getAttribute('data-intervals')) : NaN;
                  const shown = window.intervalsShown;
                  if (!Number.isNaN(n) && (shown.length === 0 || shown[shown.length - 1] !== n)) shown.push(n);
                }).observe(document.body, {subtree: true, childList: true, attributes: true,
                  attributeFilter: ['data-intervals']});""");

        // while it runs: the live timeline's chart, each time this poll sees the count change
        List<Integer> counts = new ArrayList<>();
        String status = wait(browser, RUN).pollingEvery(Duration.ofMillis(50)).until(d -> {
            List<WebElement> text = d.findElements(By.id("run-timeline-live-text"));
            if (!text.isEmpty() && text.getFirst().isDisplayed()) {
                int n = Integer.parseInt(text.getFirst().getDomAttribute("data-intervals"));
                if (counts.isEmpty() || counts.getLast() != n) {
                    counts.add(n);
                    assertThat(d.findElement(By.id("chart-timeline-live")).getDomAttribute("src"))
                            .startsWith("/api/runs/" + id + "/live/timeline.svg");
                }
            }
            String s = d.findElement(By.cssSelector("main .view")).getDomAttribute("data-status");
            return s != null && FINISHED.contains(s) ? s : null;
        });
        assertThat(status).as("run %s; page says: %s", id, errorText(browser)).isEqualTo("succeeded");
        // that the page showed the timeline live: part of a repetition's intervals while it ran. Not that it grew
        // within one: how often a browser on a busy machine redraws is not the subject (a loaded suite run saw one
        // redraw per repetition, [12, 10] of 18 intervals each).
        List<Integer> shown = ((List<?>) js(browser).executeScript("return window.intervalsShown")).stream()
                .map(n -> ((Number) n).intValue()).toList();
        assertThat(counts).as("the live timeline seen by this poll").isNotEmpty();
        JsonNode reps = json.readTree(get("/api/runs/" + id)).get("repetitions");
        int fewestIntervals = Math.min(reps.get(0).at("/timeline/roundTrips").size(),
                reps.get(1).at("/timeline/roundTrips").size());
        assertThat(shown).as("intervals shown, of at least %d a repetition", fewestIntervals).isNotEmpty()
                .anySatisfy(n -> assertThat(n).isLessThan(fewestIntervals));

        // finished: a chooser of repetitions, the median by throughput first, each one's timeline drawn
        int median = reps.get(0).get("roundTripsPerSecond").asDouble() <= reps.get(1).get("roundTripsPerSecond")
                .asDouble() ? 1 : 2;
        Select chooser = new Select(wait(browser, UI).until(d -> d.findElement(By.id("run-timeline-repetition"))));
        assertThat(chooser.getOptions()).hasSize(2);
        assertThat(chooser.getFirstSelectedOption().getText()).isEqualTo("Repetition " + median
                + " (median throughput)");
        for (int rep : List.of(median, 3 - median)) {
            chooser.selectByValue(String.valueOf(rep));
            WebElement img = wait(browser, UI).until(d -> d.findElement(By.id("chart-timeline")));
            assertThat(img.getDomAttribute("src")).isEqualTo("/api/runs/" + id + "/charts/timeline-1-" + rep
                    + ".svg");
            wait(browser, UI).until(d -> Boolean.TRUE.equals(js(d).executeScript(
                    "return arguments[0].complete && arguments[0].naturalWidth > 0", img)));
        }
        WebElement spectrum = browser.findElement(By.id("chart-spectrum"));
        assertThat(spectrum.getDomAttribute("src")).isEqualTo("/api/runs/" + id + "/charts/spectrum-1.svg");
        wait(browser, UI).until(d -> Boolean.TRUE.equals(js(d).executeScript(
                "return arguments[0].complete && arguments[0].naturalWidth > 0", spectrum)));
        assertThat(get("/api/runs/" + id + "/charts/timeline-1-1.svg")).contains("measured →", "round trips");
        assertThat(pageErrors(browser)).isEmpty();
    }

    @Test
    void twoRunsAreComparedWithTheirRatiosAndVerdict() throws Exception {
        String baseline = succeededRun();
        String candidate = succeededRun();
        WebDriver browser = chromium.driver();
        browser.get(url("/#/compare"));
        wait(browser, UI).until(d -> d.findElements(By.cssSelector("#compare-candidate option[value='" + candidate
                + "']")).size() == 1);
        new Select(browser.findElement(By.id("compare-baseline"))).selectByValue(baseline);
        new Select(browser.findElement(By.id("compare-candidate"))).selectByValue(candidate);
        browser.findElement(By.cssSelector("#compare-form button[type=submit]")).click();

        WebElement result = wait(browser, UI).until(d -> d.findElement(By.cssSelector("#compare-result table")));
        assertThat(result.findElements(By.cssSelector("thead th")).stream().map(WebElement::getText).toList())
                .containsExactly("Baseline case", "Candidate case", "Throughput ratio", "p99 ratio", "Verdict",
                        "Warnings");
        JsonNode c = json.readTree(get("/api/compare?baseline=" + baseline + "&candidate=" + candidate))
                .get("cases").get(0);
        List<WebElement> cells = result.findElements(By.cssSelector("tbody tr td"));
        assertThat(cells.get(0).getText()).isEqualTo(c.get("baselineCase").asString());
        assertThat(cells.get(2).getText()).startsWith(String.format(Locale.ROOT, "%.3f×",
                c.get("throughput").get("ratio").asDouble()));
        assertThat(cells.get(3).getText()).startsWith(String.format(Locale.ROOT, "%.3f×",
                c.get("p99").get("ratio").asDouble()));
        assertThat(cells.get(4).getText()).isEqualTo(c.get("verdict").asString());
        // these runs' warm-ups are short, so their measured phases may well not be JIT-quiet: either way it shows
        List<String> warnings = c.get("warnings").valueStream().map(JsonNode::asString).toList();
        assertThat(cells.get(5).getText()).isEqualTo(warnings.isEmpty() ? "none" : String.join("\n", warnings));
        assertThat(browser.getCurrentUrl()).endsWith("#/compare?baseline=" + baseline + "&candidate=" + candidate);
        // the regression gate's verdict over the same two, with its reasons
        JsonNode gate = json.readTree(get("/api/gate?baseline=" + baseline + "&candidate=" + candidate));
        WebElement verdict = wait(browser, UI).until(d -> d.findElement(
                By.cssSelector("#compare-gate .gate-verdict")));
        assertThat(verdict.getText()).isEqualTo(gate.get("verdict").asString());
        assertThat(browser.findElements(By.cssSelector("#compare-gate .gate-reasons li"))).hasSize(
                gate.get("reasons").size());
        // and their latency by percentile, overlaid
        WebElement spectrum = wait(browser, UI).until(d -> d.findElement(By.id("compare-spectrum")));
        wait(browser, UI).until(d -> Boolean.TRUE.equals(js(d).executeScript(
                "return arguments[0].complete && arguments[0].naturalWidth > 0", spectrum)));
        assertThat(pageErrors(browser)).isEmpty();
    }

    @Test
    void aRunAcrossHostsShowsItsPlacementAndEachRepetitionsAgentsAndStartSkew() {
        // a finished run across hosts, written into the store as the service would have recorded it: repetition 1
        // measured on three agents (the server's alone, two running clients, one of them failed), repetition 2
        // failed before its measured phase. The agents' rows are read from JSON as the store reads them, with the
        // per-agent CPU and peak RSS: AgentShare keeps them once it has those fields, and drops them before
        ObjectReader shares = json.readerFor(AgentShare.class)
                .without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        AgentShare server = shares.readValue("""
                {"member":"srv-agent","server":true,"clients":0,"messages":null,"roundTripsPerSecond":null,
                 "p99Us":null,"startLateNanos":null,"error":null,"cpuPercent":41.5,"peakRssBytes":104857600}""");
        AgentShare first = shares.readValue("""
                {"member":"cli-agent-1","server":false,"clients":2,"messages":123456,"roundTripsPerSecond":24691.2,
                 "p99Us":55.5,"startLateNanos":10000,"error":null,"cpuPercent":85.2,"peakRssBytes":536870912}""");
        AgentShare second = shares.readValue("""
                {"member":"cli-agent-2","server":false,"clients":3,"messages":7890,"roundTripsPerSecond":1578,
                 "p99Us":812,"startLateNanos":130000,"error":"unfair: a client starved",
                 "cpuPercent":null,"peakRssBytes":null}""");
        boolean perAgentResources = json.writeValueAsString(first).contains("cpuPercent");
        ClockOffset offset = new ClockOffset(0, 40_000, 16);
        StartReport start = new StartReport(List.of(new AgentStart("cli-agent-1", offset, 10_000, 150_000_000L,
                        new PhaseSpan(2_000, 1_000_122_000L)),
                new AgentStart("cli-agent-2", offset, 130_000, 150_000_000L,
                        new PhaseSpan(2_000, 1_000_052_000L))), 120_000, 80_000, 50_000L, 1_000_000_000L);
        String id = UUID.randomUUID().toString();
        Instant at = Instant.now();
        runs.save(new RunRecord(RunRecord.SCHEMA_VERSION, id, RunStatus.FAILED, Isolation.IN_PROCESS,
                RunSpec.builder().clients(5).repetitions(2).build(), null, 10, at, at, at, null, null, List.of(),
                null, false, "repetition 2: agent cli-agent-2 was lost", SystemInfo.current(), null, List.of(), null,
                new Placement("srv-agent", List.of(new Placement.ClientShare("cli-agent-1", 2),
                        new Placement.ClientShare("cli-agent-2", 3))),
                List.of(new HostsRepetition(1, List.of(server, first, second), start),
                        new HostsRepetition(2, List.of(), null))));

        WebDriver browser = chromium.driver();
        browser.get(url("/#/runs/" + id));
        WebElement hosts = wait(browser, UI).until(d -> d.findElement(By.cssSelector("#run-hosts table.hosts")));

        // the placement, next to the spec
        assertThat(browser.findElement(By.id("run-placement-server")).getText()).isEqualTo("srv-agent");
        assertThat(browser.findElement(By.id("run-placement-clients")).getText())
                .isEqualTo("cli-agent-1: 2 clients, cli-agent-2: 3 clients (5 in all)");

        // per repetition: its start skew, and a row per agent
        WebElement section = browser.findElement(By.id("run-hosts"));
        assertThat(section.findElement(By.tagName("h2")).getText()).isEqualTo("Across hosts");
        WebElement repetition1 = section.findElement(By.cssSelector("[data-repetition='1']"));
        assertThat(repetition1.findElement(By.cssSelector(".start-skew")).getText())
                .isEqualTo("Measured start skew: 120 µs (± 80 µs); stop skew 50 µs; every client agent in its measured "
                        + "phase together for 1.000 s");
        List<String> headers = hosts.findElements(By.cssSelector("thead th")).stream().map(WebElement::getText)
                .toList();
        List<String> resources = perAgentResources ? List.of("CPU", "Peak RSS") : List.of();
        List<String> expected = new ArrayList<>(List.of("Agent", "Role", "Clients", "Messages", "Round trips/s",
                "p99 RTT", "Start late"));
        expected.addAll(resources);
        expected.add("Error");
        assertThat(headers).containsExactlyElementsOf(expected);
        List<List<String>> rows = hosts.findElements(By.cssSelector("tbody tr")).stream()
                .map(tr -> tr.findElements(By.cssSelector("th, td")).stream().map(WebElement::getText).toList())
                .toList();
        assertThat(rows).containsExactly(
                row(perAgentResources, List.of("srv-agent", "server", "0", "–", "–", "–", "–"),
                        List.of("41.5 %", "100 MiB"), "–"),
                row(perAgentResources, List.of("cli-agent-1", "clients", "2", "123,456", "24,691", "55.5 µs",
                        "10 µs"), List.of("85.2 %", "512 MiB"), "–"),
                row(perAgentResources, List.of("cli-agent-2", "clients", "3", "7,890", "1,578", "812 µs", "130 µs"),
                        List.of("–", "–"), "unfair: a client starved"));
        WebElement repetition2 = section.findElement(By.cssSelector("[data-repetition='2']"));
        assertThat(repetition2.findElements(By.cssSelector(".start-skew, table"))).isEmpty();
        assertThat(repetition2.getText()).contains("Failed before its measured phase");
        assertThat(pageErrors(browser)).isEmpty();
    }

    @Test
    void aRunsCpuProfileShowsItsLayersThreadsAndAFlameGraphThatZoomsIntoAFrame() throws Exception {
        // two repetitions of an uneven layout: the first loop thread sends, receives and waits, the second checks
        String loop = "io/netty/channel/epoll/EpollEventLoop.run;";
        String send = "[loopbench-epoll-0-1];" + loop + "io/netty/channel/unix/FileDescriptor.write;__libc_write;"
                + "tcp_sendmsg_[k] ";
        String receive = "[loopbench-epoll-0-1];" + loop + "io/netty/channel/unix/FileDescriptor.read;__libc_read;"
                + "tcp_recvmsg_[k] ";
        String waits = "[loopbench-epoll-0-1];" + loop + "io/netty/channel/epoll/Native.epollWait ";
        String checks = "[loopbench-epoll-0-2];" + loop + "io/loopbench/engine/client/Client.validate ";
        String id = storedRun(List.of(
                profiledRepetition(1, profile("async-profiler 4.2", "cpu", null,
                        String.join("\n", send + 40, receive + 30, waits + 20, checks + 10))),
                profiledRepetition(2, profile("async-profiler 4.2", "cpu", null,
                        String.join("\n", send + 44, receive + 28, waits + 18, checks + 10)))));
        WebDriver browser = chromium.driver();
        browser.get(url("/#/runs/" + id));
        WebElement section = wait(browser, UI).until(d -> d.findElement(By.cssSelector("#run-profile")));
        wait(browser, UI).until(d -> !d.findElements(By.cssSelector("#run-profile-flame .frame")).isEmpty());
        assertThat(section.findElement(By.tagName("h2")).getText()).isEqualTo("Where the CPU time goes");
        assertThat(browser.findElement(By.id("run-profile-profiler")).getText()).isEqualTo("Sampled by async-profiler "
                + "4.2 (cpu) every 5 ms of each thread's CPU time: 200 samples over 2 repetitions.");
        assertThat(browser.findElements(By.cssSelector("#run-profile-fallback, #run-profile-no-kernel"))).isEmpty();

        // the summary's layers, as the service assigned them, with their CPU per round trip (1 s of CPU, 20,000 round
        // trips: 50 µs each, 42 % of it sending)
        JsonNode layers = json.readTree(get("/api/runs/" + id)).at("/summary/cpuProfile/layers");
        assertThat(headers(browser, "#run-profile-layers")).containsExactly("Layer", "Share", "CPU µs per round trip",
                "Samples");
        List<List<String>> layerRows = cells(browser, "#run-profile-layers");
        assertThat(layerRows.stream().map(List::getFirst).toList()).containsExactlyElementsOf(layers.valueStream()
                .filter(l -> l.get("samples").asLong() > 0).map(l -> l.get("words").asString()).toList());
        assertThat(browser.findElement(By.cssSelector("#run-profile-layers caption")).getText())
                .endsWith("No samples in Netty pipeline, codec, HTTP/2 frames, gRPC calls, TLS, work per echo, GC, JIT, other.");
        assertThat(layerRows.getFirst()).containsExactly("kernel send", "42 %", "21 µs", "84");
        // by thread: the imbalance, and each thread's own top layers
        List<List<String>> threads = cells(browser, "#run-profile-threads");
        assertThat(threads).containsExactly(
                List.of("[loopbench-epoll-0-1]", "90 %", "180",
                        "kernel send 46.7 %, kernel receive 32.2 %, wait 21.1 %"),
                List.of("[loopbench-epoll-0-2]", "10 %", "20", "echo check 100 %"));

        // the flame graph of both repetitions merged, each frame coloured by its kind and named on hover
        String write = "io/netty/channel/unix/FileDescriptor.write";
        assertThat(frame(browser, "run-profile-flame", write).getDomAttribute("title"))
                .isEqualTo(write + "\n84 samples, 42 % of all");
        assertThat(List.of("[loopbench-epoll-0-1]", write, "__libc_write", "tcp_sendmsg_[k]").stream()
                .map(f -> frame(browser, "run-profile-flame", f).getDomAttribute("class")).toList())
                .containsExactly("frame kind-thread", "frame kind-java", "frame kind-native", "frame kind-kernel");
        assertThat(widthShare(browser, "run-profile-flame", write)).isCloseTo(0.42, offset(0.01));

        // a click zooms into the frame: it spans the whole width, its callees under it, its callers above
        frame(browser, "run-profile-flame", write).click();
        wait(browser, UI).until(d -> d.findElement(By.cssSelector("#run-profile-flame .frame.zoomed")).getText()
                .equals(write));
        assertThat(widthShare(browser, "run-profile-flame", write)).isCloseTo(1, offset(0.01));
        assertThat(widthShare(browser, "run-profile-flame", "tcp_sendmsg_[k]")).isCloseTo(1,
                offset(0.01));
        assertThat(browser.findElements(By.cssSelector("#run-profile-flame .frame.caller")).stream()
                .map(WebElement::getText).toList()).containsExactly("all threads", "[loopbench-epoll-0-1]",
                "io/netty/channel/epoll/EpollEventLoop.run");
        assertThat(frameNames(browser, "run-profile-flame")).doesNotContain("[loopbench-epoll-0-2]",
                "io/netty/channel/unix/FileDescriptor.read");
        assertThat(browser.findElement(By.id("run-profile-flame-zoom")).getText())
                .isEqualTo("Zoomed into " + write + ": 42 % of all samples.");
        // and back to every frame
        browser.findElement(By.id("run-profile-flame-reset")).click();
        wait(browser, UI).until(d -> frameNames(d, "run-profile-flame").contains("[loopbench-epoll-0-2]"));
        assertThat(browser.findElement(By.id("run-profile-flame-reset")).isDisplayed()).isFalse();
        // by keyboard too: Enter zooms into the frame in focus, Escape goes back
        frame(browser, "run-profile-flame", write).sendKeys(Keys.ENTER);
        wait(browser, UI).until(d -> d.findElement(By.cssSelector("#run-profile-flame .frame.zoomed")).getText()
                .equals(write));
        browser.switchTo().activeElement().sendKeys(Keys.ESCAPE);
        wait(browser, UI).until(d -> d.findElement(By.cssSelector("#run-profile-flame .frame.zoomed")).getText()
                .equals("all threads"));

        // one repetition alone: its own tables (no cost per round trip) and tree
        Select chooser = new Select(browser.findElement(By.id("run-profile-repetition")));
        assertThat(chooser.getOptions().stream().map(WebElement::getText).toList()).containsExactly(
                "All 2 repetitions merged", "Repetition 1 (100 samples)", "Repetition 2 (100 samples)");
        chooser.selectByValue("2");
        wait(browser, UI).until(d -> frame(d, "run-profile-flame", write).getDomAttribute("title")
                .equals(write + "\n44 samples, 44 % of all"));
        assertThat(headers(browser, "#run-profile-layers")).containsExactly("Layer", "Share", "Samples");
        assertThat(cells(browser, "#run-profile-layers").getFirst()).containsExactly("kernel send", "44 %", "44");

        // the run form offers profiling, from the API description
        browser.get(url("/#/runs/new"));
        Select profiling = new Select(wait(browser, UI).until(d -> d.findElement(By.id("run-input-profiling"))));
        assertThat(profiling.getOptions().stream().map(o -> o.getDomAttribute("value")).toList())
                .contains("cpu", "off");
        assertThat(pageErrors(browser)).isEmpty();
    }

    @Test
    void aProfilesFrameNamesAreShownAsTextAndTheFlightRecordersFallbackIsSaid() throws Exception {
        String fallback = "async-profiler could not open perf events: <b>perf_event_paranoid</b> is 4";
        String script = "io/loopbench/Evil.<script>window.pwned = 1</script>";
        String img = "<img src=x onerror=window.pwned=2>";
        String thread = "[loopbench-<b>epoll</b>];";
        String id = storedRun(List.of(profiledRepetition(1, profile("flight recorder", "jdk.CPUTimeSample", fallback,
                thread + script + ";" + img + " 30\n" + thread + script + " 10"))));
        WebDriver browser = chromium.driver();
        browser.get(url("/#/runs/" + id));
        wait(browser, UI).until(d -> !d.findElements(By.cssSelector("#run-profile-flame .frame")).isEmpty());

        assertThat(browser.findElement(By.id("run-profile-fallback")).getText())
                .contains("The flight recorder sampled instead of async-profiler:", fallback, "Java frames only");
        assertThat(browser.findElement(By.id("run-profile-no-kernel")).getText()).startsWith("No kernel frames:");
        assertThat(browser.findElement(By.id("run-profile-profiler")).getText())
                .startsWith("Sampled by flight recorder (jdk.CPUTimeSample)");
        assertThat(frameNames(browser, "run-profile-flame")).contains("[loopbench-<b>epoll</b>]", script, img);
        assertThat(frame(browser, "run-profile-flame", img).getDomAttribute("title")).startsWith(img + "\n30 samples");
        assertThat(cells(browser, "#run-profile-threads").getFirst().getFirst()).isEqualTo("[loopbench-<b>epoll</b>]");
        // zoomed, the name is text in the line above too
        frame(browser, "run-profile-flame", script).click();
        wait(browser, UI).until(d -> d.findElement(By.id("run-profile-flame-zoom")).getText()
                .equals("Zoomed into " + script + ": 100 % of all samples."));
        assertThat(browser.findElements(By.cssSelector("#run-profile script, #run-profile img, #run-profile b")))
                .as("the profile's names are never markup").isEmpty();
        assertThat(js(browser).executeScript("return window.pwned === undefined")).isEqualTo(true);
        assertThat(pageErrors(browser)).isEmpty();
    }

    @Test
    void aMatrixCasesCpuProfileIsShownOnRequest() {
        List<RepetitionResult> reps = List.of(1, 2).stream().map(n -> profiledRepetition(n, profile(
                "async-profiler 4.2", "cpu", null, """
                        [loopbench-epoll-0-1];io/netty/channel/unix/FileDescriptor.write;tcp_sendmsg_[k] 30
                        [loopbench-epoll-0-1];io/netty/channel/epoll/Native.epollWait 10"""))).toList();
        String id = UUID.randomUUID().toString();
        Instant at = Instant.now();
        RunSpec spec = RunSpec.builder().clients(2).window(2).repetitions(2).build();
        matrices.save(new MatrixRecord(MatrixRecord.SCHEMA_VERSION, id, RunStatus.SUCCEEDED,
                json.readValue("{\"repetitions\":2}", MatrixSpec.class), 10, at, at, at, null,
                List.of(new MatrixRecord.Case(1, spec, Transport.NIO, reps, Summary.of(reps), null, null, null, null)),
                true, null, SystemInfo.current(), null, null));

        WebDriver browser = chromium.driver();
        browser.get(url("/#/matrices/" + id));
        WebElement show = wait(browser, UI).until(d -> d.findElement(By.cssSelector(
                "#matrix-cases-table button[data-case='1']")));
        assertThat(show.getDomAttribute("aria-expanded")).isEqualTo("false");
        assertThat(browser.findElements(By.cssSelector("#matrix-profile *"))).isEmpty();
        show.click();
        wait(browser, UI).until(d -> !d.findElements(By.cssSelector("#matrix-profile-flame .frame")).isEmpty());
        assertThat(browser.findElement(By.cssSelector("#matrix-profile h2")).getText())
                .isEqualTo("Where the CPU time goes: case 1, " + "tcp 1,024 B 2×2 shared×1");
        assertThat(cells(browser, "#matrix-profile-layers").getFirst()).containsExactly("kernel send", "75 %",
                "37.5 µs", "60");
        assertThat(show.getDomAttribute("aria-expanded")).isEqualTo("true");
        show.click();
        wait(browser, UI).until(d -> d.findElements(By.cssSelector("#matrix-profile *")).isEmpty());
        assertThat(pageErrors(browser)).isEmpty();
    }

    @Test
    void twoProfiledRunsAreComparedWithWhereTheirCpuTimePerRoundTripDiffers() throws Exception {
        String baseline = storedRun(List.of(1, 2).stream().map(n -> profiledRepetition(n, profile(
                "async-profiler 4.2", "cpu", null, """
                        [loopbench-epoll-0-1];io/netty/channel/unix/FileDescriptor.write;tcp_sendmsg_[k] 400
                        [loopbench-epoll-0-1];io/netty/channel/unix/FileDescriptor.read;tcp_recvmsg_[k] 200
                        [loopbench-epoll-0-1];io/netty/channel/epoll/Native.epollWait 200
                        [loopbench-epoll-0-1];io/loopbench/engine/client/Client.validate 20"""))).toList());
        String candidate = storedRun(List.of(1, 2).stream().map(n -> profiledRepetition(n, profile(
                "async-profiler 4.2", "cpu", null, """
                        [loopbench-epoll-0-1];io/netty/channel/unix/FileDescriptor.write;tcp_sendmsg_[k] 200
                        [loopbench-epoll-0-1];io/netty/channel/unix/FileDescriptor.read;tcp_recvmsg_[k] 300
                        [loopbench-epoll-0-1];io/netty/channel/epoll/Native.epollWait 300
                        [loopbench-epoll-0-1];io/loopbench/engine/client/Client.validate 20"""))).toList());
        JsonNode profile = json.readTree(get("/api/compare?baseline=" + baseline + "&candidate=" + candidate))
                .at("/cases/0/cpuProfile");
        WebDriver browser = chromium.driver();
        browser.get(url("/#/compare?baseline=" + baseline + "&candidate=" + candidate));
        WebElement words = wait(browser, UI).until(d -> d.findElement(By.cssSelector("#compare-profiles "
                + ".profile-words")));

        // two runs at different times: no layer's change is established, the largest is named with its verdict
        assertThat(words.getText()).isEqualTo(profile.get("words").asString()).contains("the largest, kernel send");
        assertThat(headers(browser, "#compare-result table.compare")).doesNotContain("Profile");
        assertThat(headers(browser, "#compare-profile-1 table.profile-layers")).containsExactly("Layer",
                "Baseline µs per round trip", "Candidate µs per round trip", "Change", "Ratio (95 % interval)");
        List<List<String>> layers = cells(browser, "#compare-profile-1 table.profile-layers");
        assertThat(layers).hasSize(profile.get("layers").size());
        for (int i = 0; i < layers.size(); i++) {
            JsonNode change = profile.get("layers").get(i);
            List<String> row = layers.get(i);
            assertThat(row.getFirst()).isEqualTo(change.get("name").asString());
            double changeUs = change.get("changeUs").asDouble();
            assertThat(row.get(3)).startsWith(changeUs < 0 ? "−" : changeUs > 0 ? "+" : "");
            JsonNode difference = change.get("difference");
            assertThat(row.get(4)).as("row %s", row).startsWith(String.format(Locale.ROOT, "%.3f×",
                    difference.get("ratio").asDouble()));
            assertThat(row.get(4).contains("–")).as("row %s: its interval, where the test bounds it", row)
                    .isEqualTo(!difference.get("lower").isNull());
        }
        assertThat(cells(browser, "#compare-profile-1 table.profile-frames").stream().map(List::getFirst).toList())
                .containsExactlyElementsOf(profile.get("frames").valueStream().map(f -> f.get("name").asString())
                        .toList());
        assertThat(pageErrors(browser)).isEmpty();
    }

    @Test
    void aRecommendationsRefusedFieldsAreShownNextToThemAndNothingIsQueued() throws Exception {
        long before = recommendationCount();
        WebDriver browser = chromium.driver();
        browser.get(url("/#/"));
        browser.findElement(By.cssSelector("nav a[href='#/recommendations/new']")).click();
        wait(browser, UI).until(d -> !d.findElements(By.id("recommendation-form")).isEmpty());
        assertThat(browser.findElement(By.cssSelector("label[for='recommendation-input-budgetSeconds']")).getText())
                .endsWith("(required)");
        // two candidates, so that the least budget the service names is for them
        browser.findElement(By.id("recommendation-input-ioModels-shared")).click();
        browser.findElement(By.id("recommendation-input-transports-nio")).click();
        typeInto(browser, "recommendation-input-ioThreads", "1, 2");
        typeInto(browser, "recommendation-input-seconds", "0.5");
        typeInto(browser, "recommendation-input-warmupSeconds", "0");
        typeInto(browser, "recommendation-input-budgetSeconds", "5");

        // a load's field: the service names it load.payloadBytes, the form shows it next to payloadBytes
        typeInto(browser, "recommendation-input-payloadBytes", "5");
        browser.findElement(By.id("recommendation-submit")).click();
        assertThat(shownError(browser, "recommendation-error-payloadBytes").getText())
                .contains("load.payloadBytes = 5 is out of range", "16 … 65,507");
        assertThat(browser.findElement(By.id("recommendation-input-payloadBytes")).getDomAttribute("aria-invalid"))
                .isEqualTo("true");
        assertThat(browser.findElement(By.id("recommendation-form-problems")).getText())
                .contains("The recommendation was not started");

        // the load valid: the budget is judged, and too small for a test to decide
        typeInto(browser, "recommendation-input-payloadBytes", "256");
        browser.findElement(By.id("recommendation-submit")).click();
        assertThat(shownError(browser, "recommendation-error-budgetSeconds").getText())
                .contains("budgetSeconds = 5 is out of range: allowed at least", "for these 2 candidates");
        assertThat(browser.findElements(By.cssSelector(".field-error")).stream().filter(WebElement::isDisplayed)
                .map(e -> e.getDomAttribute("id")).toList()).containsExactly("recommendation-error-budgetSeconds");

        // a value of the wrong type in the load, as the service words it, next to its field
        typeInto(browser, "recommendation-input-clients", "many");
        browser.findElement(By.id("recommendation-submit")).click();
        assertThat(shownError(browser, "recommendation-error-clients").getText())
                .contains("field 'load.clients': 'many' is not a value of type integer");

        assertThat(browser.getCurrentUrl()).endsWith("#/recommendations/new");
        assertThat(recommendationCount()).as("recommendations stored").isEqualTo(before);
        assertThat(pageErrors(browser)).isEmpty();
    }

    @Test
    void aStoredRecommendationShowsItsAnswerPlanAndCandidatesAndTheListHasItNewestFirst() throws Exception {
        String older = UUID.randomUUID().toString();
        String newer = UUID.randomUUID().toString();
        recommendations.save(json.readValue(recommendationJson(older, "2026-01-01T10:00:00Z", "cancelled", """
                {"outcome":"undecided","rounds":1,"decidedAtRound":null,"recommended":"shared 1 · nio · netty",
                 "runnerUp":null,"margin":null,"candidates":[],
                 "answer":"Undecided after 1 rounds: shared 1 · nio · netty leads so far."}""", "\"cancelled; its finished repetitions are kept\""), RecommendationRecord.class));
        String answer = "Use shared 2 · epoll · netty: established better than every other candidate after round 9 "
                + "over sharded 2 · epoll · netty: 1.19× (99.72 % interval 1.12–1.27) on round trips/s over 9 rounds; "
                + "it costs 12.34 µs of CPU per round trip and 123 MiB of RSS.";
        recommendations.save(json.readValue(recommendationJson(newer, "2026-01-02T10:00:00Z", "succeeded", """
                {"outcome":"winner","rounds":9,"decidedAtRound":9,"recommended":"shared 2 · epoll · netty",
                 "runnerUp":"sharded 2 · epoll · netty","margin":%s,"answer":"%s","candidates":[
                  {"label":"shared 2 · epoll · netty","status":"recommended","repetitions":9,"clean":9,
                   "candidate":{"ioModel":"shared","ioThreads":2,"transport":"epoll","execution":"netty"},
                   "roundTripsPerSecond":{"median":48000,"min":45000,"max":50000},
                   "p99Us":{"median":85.2,"min":80.1,"max":90.3},"cpuUsPerRoundTrip":12.34,"peakRssMiB":123.4,
                   "eliminatedAtRound":null,"eliminatedBy":null,"lostBy":null,"reason":null},
                  {"label":"sharded 2 · epoll · netty","status":"eliminated","repetitions":6,"clean":6,
                   "candidate":{"ioModel":"sharded","ioThreads":2,"transport":"epoll","execution":"netty"},
                   "roundTripsPerSecond":{"median":39000,"min":37000,"max":41000},
                   "p99Us":{"median":101,"min":95,"max":110},"cpuUsPerRoundTrip":14.5,"peakRssMiB":130,
                   "eliminatedAtRound":6,"eliminatedBy":"shared 2 · epoll · netty","lostBy":%s,
                   "reason":"established worse than shared 2 · epoll · netty after round 6"},
                  {"label":"shared 1 · epoll · netty","status":"failed","repetitions":2,"clean":1,
                   "candidate":{"ioModel":"shared","ioThreads":1,"transport":"epoll","execution":"netty"},
                   "roundTripsPerSecond":{"median":30000,"min":30000,"max":30000},
                   "p99Us":{"median":120,"min":120,"max":120},"cpuUsPerRoundTrip":null,"peakRssMiB":null,
                   "eliminatedAtRound":2,"eliminatedBy":null,"lostBy":null,
                   "reason":"failed in round 2: <b>stalled</b>"}]}""".formatted(difference(1.19), answer,
                difference(0.81)), "null"), RecommendationRecord.class));

        WebDriver browser = chromium.driver();
        browser.get(url("/#/recommendations/" + newer));
        WebElement candidates = wait(browser, UI).until(d -> d.findElement(
                By.cssSelector("#recommendation-candidates table.candidates")));
        assertThat(browser.findElement(By.cssSelector("main .view")).getDomAttribute("data-status"))
                .isEqualTo("succeeded");
        assertThat(browser.findElement(By.id("recommendation-status")).getText()).isEqualTo("succeeded");
        assertThat(browser.findElement(By.id("recommendation-outcome")).getText()).isEqualTo("winner");
        assertThat(browser.findElement(By.id("recommendation-answer-text")).getText()).isEqualTo(answer);
        assertThat(browser.findElement(By.id("recommendation-margin")).getText())
                .isEqualTo("Against the runner-up, sharded 2 · epoll · netty: 1.190× (interval 1.120× – 1.260×), "
                        + "established");
        // the plan, and what the race used of it
        String plan = browser.findElement(By.id("recommendation-plan-list")).getText();
        assertThat(plan).contains("9 run of at most 40; decided after round 9", "after every round from round 2",
                "0.0167 each: alpha 0.05 ÷ 3 tests; confidence sequences hold at every look",
                "3, about 5.5 s a repetition",
                "6 % per round's log ratio, 2.5 % between one-thread candidates",
                "Minimum effect", "5 %", "p99 bound", "2,000 µs", "Budget", "10 min 00 s, 45 s used",
                "9 min 15 s saved by stopping when decided",
                "tcp 256 B 4×4", "closed");
        assertThat(browser.findElement(By.id("recommendation-progress")).isDisplayed()).isFalse();
        assertThat(browser.findElements(By.id("recommendation-cancel"))).as("no cancel once finished").isEmpty();
        assertThat(browser.findElement(By.id("recommendation-report-md")).getDomAttribute("href"))
                .isEqualTo("/api/recommendations/" + newer + "/report");

        // every candidate: its fate, repetitions (clean), figures, and why it was eliminated, text as text
        assertThat(candidates.findElements(By.cssSelector("thead th")).stream().map(WebElement::getText).toList())
                .containsExactly("Candidate", "Status", "Repetitions (clean)", "Round trips/s median [min, max]",
                        "p99 median [min, max]", "CPU µs per round trip", "Peak RSS MiB", "Why eliminated");
        List<List<String>> rows = candidates.findElements(By.cssSelector("tbody tr")).stream()
                .map(tr -> tr.findElements(By.cssSelector("th, td")).stream().map(WebElement::getText).toList())
                .toList();
        assertThat(rows).containsExactly(
                List.of("shared 2 · epoll · netty", "recommended", "9 (9)", "48,000 [45,000, 50,000]",
                        "85.2 µs [80.1 µs, 90.3 µs]", "12.3", "123", ""),
                List.of("sharded 2 · epoll · netty", "eliminated", "6 (6)", "39,000 [37,000, 41,000]",
                        "101 µs [95 µs, 110 µs]", "14.5", "130", "established worse than shared 2 · epoll · netty "
                                + "after round 6"),
                List.of("shared 1 · epoll · netty", "failed", "2 (1)", "30,000 [30,000, 30,000]",
                        "120 µs [120 µs, 120 µs]", "–", "–", "failed in round 2: <b>stalled</b>"));
        assertThat(candidates.findElements(By.tagName("b"))).as("the server's text is never markup").isEmpty();

        // the list, from the navigation: the newer first, with its outcome and answer
        browser.findElement(By.cssSelector("nav a[href='#/recommendations']")).click();
        wait(browser, UI).until(d -> d.findElements(By.cssSelector("#recommendations-list tbody tr a")).stream()
                .map(WebElement::getText).toList().containsAll(List.of(newer.substring(0, 8), older.substring(0, 8))));
        List<String> listed = browser.findElements(By.cssSelector("#recommendations-list tbody tr")).stream()
                .map(WebElement::getText).toList();
        int newerRow = indexOf(listed, newer.substring(0, 8));
        int olderRow = indexOf(listed, older.substring(0, 8));
        assertThat(newerRow).as("rows %s", listed).isLessThan(olderRow);
        assertThat(listed.get(newerRow)).contains("succeeded", "tcp", "3", "10 min 00 s", "winner",
                "Use shared 2 · epoll · netty");
        assertThat(listed.get(olderRow)).contains("cancelled", "undecided", "cancelled; its finished repetitions");
        browser.findElement(By.linkText(newer.substring(0, 8))).click();
        wait(browser, UI).until(d -> d.findElement(By.id("recommendation-answer-text")).getText().equals(answer));
        assertThat(pageErrors(browser)).isEmpty();
    }

    @Test
    void aRecommendationAskedFromTheFormIsFollowedLiveAndCancelled() throws Exception {
        WebDriver browser = chromium.driver();
        browser.get(url("/#/recommendations/new"));
        wait(browser, UI).until(d -> !d.findElements(By.id("recommendation-form")).isEmpty());
        browser.findElement(By.id("recommendation-input-ioModels-shared")).click();
        browser.findElement(By.id("recommendation-input-transports-nio")).click();
        typeInto(browser, "recommendation-input-ioThreads", "1, 2");
        typeInto(browser, "recommendation-input-payloadBytes", "256");
        typeInto(browser, "recommendation-input-clients", "2");
        typeInto(browser, "recommendation-input-window", "2");
        typeInto(browser, "recommendation-input-seconds", "0.5");
        typeInto(browser, "recommendation-input-warmupSeconds", "0");
        // far more than the race needs to decide: it is still racing when cancelled, whatever the machine's load
        typeInto(browser, "recommendation-input-budgetSeconds", "3600");
        browser.findElement(By.id("recommendation-submit")).click();

        wait(browser, UI).until(d -> d.getCurrentUrl().matches(".*#/recommendations/[^/]+$")
                && !d.getCurrentUrl().endsWith("/new"));
        String id = browser.getCurrentUrl().replaceFirst(".*#/recommendations/", "");
        // the form's values reached the service as a recommendation's request: the load nested, the lists beside it
        JsonNode spec = json.readTree(get("/api/recommendations/" + id)).get("spec");
        assertThat(spec.at("/load/payloadBytes").asInt()).isEqualTo(256);
        assertThat(spec.at("/load/clients").asInt()).isEqualTo(2);
        assertThat(spec.at("/load/seconds").asDouble()).isEqualTo(0.5);
        assertThat(spec.get("budgetSeconds").asDouble()).isEqualTo(3600);
        assertThat(spec.get("ioThreads").valueStream().map(JsonNode::asInt).toList()).containsExactly(1, 2);
        assertThat(spec.get("transports").valueStream().map(JsonNode::asString).toList()).containsExactly("nio");

        // live: the round and the candidate under way, until the page shows one (or the race ended first)
        String progress = wait(browser, RUN).until(d -> {
            WebElement p = d.findElement(By.id("recommendation-progress-text"));
            if (p.isDisplayed() && p.getText().startsWith("Round")) {
                return p.getText();
            }
            String s = d.findElement(By.cssSelector("main .view")).getDomAttribute("data-status");
            return s != null && FINISHED.contains(s) ? "ended " + s : null;
        });
        assertThat(progress).as("recommendation %s: %s", id, browser.findElement(By.id("recommendation-error"))
                .getText()).matches("Round \\d+ of at most \\d+ · shared [12] · nio · netty under way \\(repetition "
                + "\\d+\\) · [12] candidates? racing · .* of the 1 h 00 min budget");
        assertThat(browser.findElements(By.cssSelector("#recommendation-candidates tbody tr"))).hasSize(2);

        browser.findElement(By.id("recommendation-cancel")).click();
        String status = wait(browser, RUN).until(d -> {
            String s = d.findElement(By.cssSelector("main .view")).getDomAttribute("data-status");
            return s != null && FINISHED.contains(s) ? s : null;
        });
        assertThat(status).isEqualTo("cancelled");
        assertThat(browser.findElement(By.id("recommendation-status")).getText()).isEqualTo("cancelled");
        assertThat(browser.findElement(By.id("recommendation-error")).getText()).startsWith("Cancelled:");
        assertThat(browser.findElements(By.id("recommendation-cancel"))).isEmpty();
        assertThat(browser.findElement(By.id("recommendation-progress")).isDisplayed()).isFalse();
        assertThat(pageErrors(browser)).isEmpty();
    }

    /**
     * A stored recommendation's JSON as the service writes it: a race of three candidates over a 4 × 4 TCP load,
     * started at createdAt plus 1 s and finished 45 s later; verdict and error (JSON, or null) as given.
     */
    private static String recommendationJson(String id, String createdAt, String status, String verdict,
                                             String error) {
        Instant created = Instant.parse(createdAt);
        return """
                {"schemaVersion":1,"id":"%s","status":"%s",
                 "spec":{"load":{"protocol":"tcp","payloadBytes":256,"clients":4,"window":4,"seconds":3.0,
                   "warmupSeconds":1.0},"budgetSeconds":600,"p99BoundUs":2000,"minimumEffect":0.05,"alpha":0.05,
                   "ioModels":null,"ioThreads":[1,2],"transports":["epoll"],"executions":null},
                 "candidates":[
                   {"ioModel":"shared","ioThreads":1,"transport":"epoll","execution":"netty"},
                   {"ioModel":"shared","ioThreads":2,"transport":"epoll","execution":"netty"},
                   {"ioModel":"sharded","ioThreads":2,"transport":"epoll","execution":"netty"}],
                 "plan":{"candidates":3,"testsPerLook":3,"firstLook":2,"maxRounds":40,"alpha":0.05,
                   "testAlpha":0.016666666666666666,"repetitionSeconds":5.5,"noise":0.06,"p99Noise":0.12,
                   "tunedRounds":2,"soloNoise":0.025,"soloP99Noise":0.05},
                 "createdAt":"%s","startedAt":"%s","finishedAt":"%s","progress":null,
                 "repetitions":[[],[],[]],"verdict":%s,"error":%s,"system":null,"workerEnvironment":null,
                 "worker":null}""".formatted(id, status, created, created.plusSeconds(1), created.plusSeconds(46),
                verdict, error);
    }

    /** A difference established at the race's level, as Verdicts makes one: {@code ratio} over 9 paired rounds. */
    private static String difference(double ratio) {
        return String.format(Locale.ROOT, """
                {"ratio":%s,"lower":%s,"upper":%s,"pValue":0.0039,"adjustedPValue":0.0039,"family":1,"paired":true,
                 "controlled":true,"baselineSize":9,"candidateSize":9,"method":"paired Wilcoxon signed-rank",
                 "decision":"established","needed":null,"minimumEffect":0.05}""", ratio,
                Math.round((ratio - 0.07) * 100) / 100.0, Math.round((ratio + 0.07) * 100) / 100.0);
    }

    private static int indexOf(List<String> rows, String text) {
        for (int i = 0; i < rows.size(); i++) {
            if (rows.get(i).contains(text)) {
                return i;
            }
        }
        throw new AssertionError("no row with " + text + " in " + rows);
    }

    /** The field's error message once the page shows it. */
    private static WebElement shownError(WebDriver browser, String id) {
        return wait(browser, UI).until(d -> {
            WebElement e = d.findElement(By.id(id));
            return e.isDisplayed() ? e : null;
        });
    }

    /** A row of the per-agent table: its cells, with the CPU and peak RSS cells where the records carry them. */
    private static List<String> row(boolean perAgentResources, List<String> cells, List<String> resources,
                                    String error) {
        List<String> row = new ArrayList<>(cells);
        if (perAgentResources) {
            row.addAll(resources);
        }
        row.add(error);
        return row;
    }

    // ---- helpers ----

    /** A CPU profile of these collapsed stacks, sampled every 5 ms. */
    private static CpuProfile profile(String profiler, String event, String fallback, String collapsed) {
        CallTree tree = new CallTree();
        tree.addCollapsed(collapsed);
        return tree.toProfile(profiler, event, fallback, 5000);
    }

    /** A passed repetition of 10,000 round trips in 1 s, which took 0.5 s of CPU, with this CPU profile. */
    private static RepetitionResult profiledRepetition(int repetition, CpuProfile profile) {
        return new RepetitionResult(repetition, true, null, null,
                new EchoPairSetup(Transport.NIO, null, null, null, null, false, 1, null, null, null, null),
                new Throughput(1.0, 10_000L, 10_000L, 10_000.0, 4.9),
                new RoundTripTimes(new Latency(LatencyMode.MESSAGE, 10_000, 50, 80, 90, 100 + repetition, 150, 200,
                        60), null, null),
                new ResourceUse(new CpuUsage(0.5, 1.0, 50), new MemoryUsage(100L << 20, 120L << 20)),
                        new JvmActivity(null, new GcActivity(0, 0)),
                new Checks(new ErrorCounts(0, 0, 0, 0, 0, 0, 0, 0, 0), null, null, null, null, List.of(), List.of()),
                null, null, profile);
    }

    /** A succeeded run of these repetitions, written into the store as the service would have recorded it; its id. */
    private String storedRun(List<RepetitionResult> reps) {
        String id = UUID.randomUUID().toString();
        Instant at = Instant.now();
        runs.save(new RunRecord(RunRecord.SCHEMA_VERSION, id, RunStatus.SUCCEEDED, Isolation.IN_PROCESS,
                RunSpec.builder().clients(2).window(2).repetitions(reps.size()).build(), null, 10, at, at, at, null,
                Transport.NIO, reps, Summary.of(reps), true, null, SystemInfo.current(), null, List.of(), null, null,
                List.of()));
        return id;
    }

    /** The flame graph's first frame of this name (its text: every frame in these tests is wide enough for it). */
    private static WebElement frame(WebDriver browser, String flame, String name) {
        return (WebElement) js(browser).executeScript("return [...document.querySelectorAll('#' + arguments[0] "
                + "+ ' .frame')].find(e => e.textContent === arguments[1]) || null", flame, name);
    }

    @SuppressWarnings("unchecked")
    private static List<String> frameNames(WebDriver browser, String flame) {
        return (List<String>) js(browser).executeScript("return [...document.querySelectorAll('#' + arguments[0] "
                + "+ ' .frame')].map(e => e.textContent)", flame);
    }

    /** The frame's width as a share of the flame graph's. */
    private static double widthShare(WebDriver browser, String flame, String name) {
        return ((Number) js(browser).executeScript("return arguments[0].getBoundingClientRect().width "
                + "/ document.getElementById(arguments[1]).getBoundingClientRect().width",
                frame(browser, flame, name), flame)).doubleValue();
    }

    /** The column headers of the table at (or in) this selector. */
    private static List<String> headers(WebDriver browser, String table) {
        return browser.findElements(By.cssSelector(table + " thead th")).stream().map(WebElement::getText).toList();
    }

    /** The text of each body row's cells, row by row. */
    private static List<List<String>> cells(WebDriver browser, String table) {
        return browser.findElements(By.cssSelector(table + " tbody tr")).stream()
                .map(tr -> tr.findElements(By.cssSelector("th, td")).stream().map(WebElement::getText).toList())
                .toList();
    }

    private String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }

    private static WebDriverWait wait(WebDriver browser, Duration timeout) {
        WebDriverWait w = new WebDriverWait(browser, timeout, Duration.ofMillis(100));
        w.ignoring(org.openqa.selenium.NoSuchElementException.class);
        w.ignoring(org.openqa.selenium.StaleElementReferenceException.class);
        return w;
    }

    private static JavascriptExecutor js(WebDriver browser) {
        return (JavascriptExecutor) browser;
    }

    private static void type(WebDriver browser, String field, String text) {
        typeInto(browser, "run-input-" + field, text);
    }

    private static void typeInto(WebDriver browser, String id, String text) {
        WebElement input = browser.findElement(By.id(id));
        input.clear();
        input.sendKeys(text);
    }

    private static String background(WebDriver browser) {
        return (String) js(browser).executeScript("return getComputedStyle(document.body).backgroundColor");
    }

    /** The script error the page shows (it shows every one there, the latest last); empty when none was. */
    private static List<String> pageErrors(WebDriver browser) {
        assertThat(browser.findElement(By.id("main")).findElements(By.xpath("./*"))).as("the page's script ran")
                .isNotEmpty();
        String shown = browser.findElement(By.id("page-errors")).getText();
        return shown.isBlank() ? List.of() : List.of(shown);
    }

    private static String errorText(WebDriver browser) {
        List<WebElement> e = browser.findElements(By.id("run-error"));
        return e.isEmpty() ? "" : e.getFirst().getText();
    }

    private String get(String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url(path)))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("GET %s: %s", path, r.body()).isEqualTo(200);
        return r.body();
    }

    /**
     * A short in-process run through the API, waited for until it succeeded; its id. Its fixed warm-up compiles the
     * echo path first, without which a cold client can starve and fail the repetition as unfair.
     */
    private String succeededRun() throws Exception {
        HttpResponse<String> posted = http.send(HttpRequest.newBuilder(URI.create(url("/api/runs")))
                .header("Content-Type", "application/json").timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.ofString("""
                        {"clients":2,"window":2,"payloadBytes":256,"warmupSeconds":0.2,"warmupMode":"fixed",
                         "seconds":1.0,"repetitions":2,"isolation":"in-process"}""")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(posted.statusCode()).as(posted.body()).isEqualTo(202);
        String id = json.readTree(posted.body()).get("id").asString();
        long deadline = System.nanoTime() + RUN.toNanos();
        while (System.nanoTime() < deadline) {
            JsonNode run = json.readTree(get("/api/runs/" + id));
            String status = run.get("status").asString();
            if (FINISHED.contains(status)) {
                assertThat(status).as("run %s: %s", id, run.get("error")).isEqualTo("succeeded");
                return id;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("run " + id + " did not finish in " + RUN);
    }

    private long recommendationCount() throws Exception {
        return json.readTree(get("/api/recommendations?limit=1")).get("total").asLong();
    }

    private long runCount() throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url("/api/runs?limit=1")))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode page = json.readTree(r.body());
        return page.get("total").asLong();
    }
}
