package io.loopbench.engine.process;

import io.loopbench.engine.spec.Labeled;

import java.util.List;

/**
 * How a JVM's classes came in at start, which decides how soon it is steady: {@code aot_cache} (mapped from the
 * {@code -XX:AOTCache} file in its flags: classes already loaded and linked by a training run, and that run's method
 * profiles where it recorded them — the service's workers' cache holds none; JDK 25+), {@code aot_cache_refused}
 * ({@code -XX:AOTCache} was given but the JVM could not use the file — missing, stale or from another JDK — and
 * started without any archive), {@code cds} (a class-data sharing
 * archive: the JDK's default or {@code -XX:SharedArchiveFile}; classes only) or {@code none}.
 */
public enum ClassSharing implements Labeled {
    AOT_CACHE("AOT cache: classes loaded and linked by a training run (and its method profiles, if it recorded them)"),
    AOT_CACHE_REFUSED("none: the JVM refused the AOT cache it was given and started plainly"),
    CDS("CDS archive: classes only"),
    NONE("none");

    private final String description;

    ClassSharing(String description) {
        this.description = description;
    }

    /** In words, for reports. */
    public String description() {
        return description;
    }

    /**
     * This JVM's: HotSpot adds "sharing" to {@code java.vm.info} exactly when an archive is mapped, and a JVM that
     * cannot map the AOT cache it was given maps no other, so the flag and that word together tell the four apart.
     */
    public static ClassSharing of(List<String> jvmArguments) {
        boolean mapped = System.getProperty("java.vm.info", "").contains("sharing");
        boolean aotCache = jvmArguments.stream().anyMatch(a -> a.startsWith("-XX:AOTCache="));
        if (aotCache) {
            return mapped ? AOT_CACHE : AOT_CACHE_REFUSED;
        }
        return mapped ? CDS : NONE;
    }
}
