package io.loopbench.runs;

import io.loopbench.engine.Transports;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.stereotype.Component;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code runStore} health: DOWN when the data directory cannot be written (runs could not be stored); details name
 * the directory, any run files skipped as unreadable, and which native transports load here.
 */
@Component("runStoreHealthIndicator")
class DataDirectoryHealthIndicator extends AbstractHealthIndicator {

    private final RunStore store;

    DataDirectoryHealthIndicator(RunStore store) {
        this.store = store;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) throws Exception {
        Path dir = store.directory().toAbsolutePath();
        Path probe = Files.createTempFile(dir, ".health", ".tmp");
        Files.delete(probe);
        builder.up()
                .withDetail("dataDirectory", dir.toString())
                .withDetail("storedRuns", store.all().size())
                .withDetail("corruptFiles", store.corruptFiles())
                .withDetail("nativeTransports", Transports.availability());
    }
}
