package io.loopbench.web;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.opentest4j.TestAbortedException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A headless Debian Chromium per test, driven by Debian's chromedriver at fixed paths, so that Selenium Manager
 * never looks for (or downloads) a driver or a browser. On a failed test it saves a screenshot and the page's HTML
 * under {@code target/browser-failures/} before the browser quits (not for a test aborted by an assumption). Register with {@code @RegisterExtension}.
 *
 * <p>Paths: {@code /usr/bin/chromium} and {@code /usr/bin/chromedriver}, or the system properties
 * {@code loopbench.chromium} and {@code loopbench.chromedriver}.
 */
final class Chromium implements BeforeEachCallback, AfterTestExecutionCallback, AfterEachCallback {

    static final Path BINARY = Path.of(System.getProperty("loopbench.chromium", "/usr/bin/chromium"));
    static final Path DRIVER = Path.of(System.getProperty("loopbench.chromedriver", "/usr/bin/chromedriver"));
    static final Path FAILURES = Path.of("target", "browser-failures");

    private ChromeDriverService service;
    private ChromeDriver driver;
    private Path profile;

    /** Skips the calling test (or class, from {@code @BeforeAll}) when Chromium or ChromeDriver is missing. */
    static void assumeInstalled() {
        List<String> missing = new ArrayList<>();
        if (!Files.isExecutable(BINARY)) {
            missing.add(BINARY.toString());
        }
        if (!Files.isExecutable(DRIVER)) {
            missing.add(DRIVER.toString());
        }
        assumeTrue(missing.isEmpty(), () -> "Browser tests skipped: " + String.join(" and ", missing)
                + " not installed. Install them with 'apt-get install -y chromium chromium-driver' (docs/testing.md, "
                + "'Browser tests').");
    }

    ChromeDriver driver() {
        if (driver == null) {
            throw new IllegalStateException("no browser: Chromium starts before each test");
        }
        return driver;
    }

    /**
     * Stops the drivers, and their browsers, that a killed test JVM left behind: a chromedriver whose parent is gone
     * (reparented to init). A running test's driver is its JVM's child and is kept. {@code @AfterEach} does not run in
     * a killed JVM, and nothing else would stop them.
     *
     * @return the pids of the drivers stopped
     */
    static List<Long> stopOrphans() {
        String driver = driverCommand();
        List<Long> stopped = new ArrayList<>();
        ProcessHandle.allProcesses()
                .filter(p -> p.info().command().map(driver::equals).orElse(false))
                .filter(p -> p.parent().map(ProcessHandle::pid).orElse(1L) == 1L)
                .forEach(p -> {
                    p.descendants().forEach(ProcessHandle::destroyForcibly);
                    p.destroyForcibly();
                    stopped.add(p.pid());
                });
        return stopped;
    }

    /**
     * The driver's command as a process reports it: the executable itself, where Debian's /usr/bin/chromedriver is a
     * link to /usr/lib/chromium/chromedriver.
     */
    static String driverCommand() {
        try {
            return DRIVER.toRealPath().toString();
        } catch (IOException e) {
            return DRIVER.toAbsolutePath().toString();
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) throws IOException {
        assumeInstalled();
        stopOrphans();
        profile = Files.createTempDirectory("loopbench-chromium-");
        service = new ChromeDriverService.Builder()
                .usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort()
                .build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(BINARY.toFile());
        options.addArguments(
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run", "--disable-quic", "--window-size=1280,1000",
                "--user-data-dir=" + profile.toAbsolutePath());
        try {
            driver = new ChromeDriver(service, options);
        } catch (RuntimeException e) {
            service.stop();
            throw e;
        }
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30)).scriptTimeout(Duration.ofSeconds(10));
    }

    @Override
    public void afterTestExecution(ExtensionContext context) {
        if (driver == null || context.getExecutionException().isEmpty()
                || context.getExecutionException().get() instanceof TestAbortedException) {
            return;
        }
        String name = context.getRequiredTestClass().getSimpleName() + "-" + context.getRequiredTestMethod().getName();
        try {
            Files.createDirectories(FAILURES);
            Path png = FAILURES.resolve(name + ".png");
            Files.write(png, driver.getScreenshotAs(OutputType.BYTES));
            Files.writeString(FAILURES.resolve(name + ".html"), driver.getPageSource());
            context.publishReportEntry("screenshot", png.toAbsolutePath().toString());
            System.err.println("Browser test failed; screenshot: " + png.toAbsolutePath() + ", page at "
                    + driver.getCurrentUrl());
        } catch (IOException | RuntimeException e) {
            System.err.println("Browser test failed; no screenshot (" + e + ")");
        }
    }

    @Override
    public void afterEach(ExtensionContext context) throws IOException {
        try {
            if (driver != null) {
                driver.quit();
            }
        } finally {
            driver = null;
            if (service != null) {
                service.stop();
                service = null;
            }
            if (profile != null) {
                deleteTree(profile);
                profile = null;
            }
        }
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // Chromium may still be writing its profile as it exits; a temp directory left behind is harmless
        }
    }
}
