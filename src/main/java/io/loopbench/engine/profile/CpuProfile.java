package io.loopbench.engine.profile;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Where the CPU time of a measured phase went: CPU samples of every thread of the process, by layer, by thread and as
 * a call tree (for flame graphs). Immutable.
 *
 * @param profiler      what sampled: {@code async-profiler <version>} (perf events' CPU clock, Java, native and
 *                      kernel frames) or {@code flight recorder} (the JDK's CPU-time or execution samples: Java frames
 *                      only, a system call's time shows in the Java method that made it)
 * @param event         the sampled event, as the profiler names it ({@code cpu}, {@code jdk.CPUTimeSample} …)
 * @param fallback      why the flight recorder sampled instead of async-profiler; null when async-profiler did
 * @param intervalMicros CPU time between two samples of a thread, µs
 * @param samples       samples taken, every thread together; the tree's counts add up to it
 * @param kernelFrames  whether any stack reached into the kernel (false: the kernel's own work is not seen apart)
 * @param layers        samples by {@link Layer}, every layer listed, largest first
 * @param threads       samples by thread (its name, a repetition's loop threads numbered alike every time), largest
 *                      first; threads with under 1 % of the samples together as {@code [other threads]}
 * @param frames        every frame name the tree uses
 * @param tree          the call tree, three numbers per node: its parent's node index (-1 for a thread's frame, the
 *                      top), its frame (an index in {@code frames}) and its self samples; a parent comes before its
 *                      children. Nodes under {@link #PRUNED_SHARE} of the samples are folded into their parent's self
 *                      samples, so that a profile stays some tens of KB
 */
public record CpuProfile(String profiler, String event, String fallback, int intervalMicros, long samples,
                         boolean kernelFrames, List<LayerShare> layers, List<ThreadShare> threads, List<String> frames,
                         int[] tree) {

    /** Share of all samples under which a node of {@code tree} is folded into its parent. */
    public static final double PRUNED_SHARE = 0.005;

    public CpuProfile {
        layers = List.copyOf(layers);
        threads = List.copyOf(threads);
        frames = List.copyOf(frames);
    }

    /** One layer (by its label and its name in words, {@link Layer#words()}), its samples and their share. */
    public record LayerShare(Layer layer, String words, long samples, double share) {
    }

    /** One thread's samples, their share of all samples, and its own samples by layer (those with any). */
    public record ThreadShare(String thread, long samples, double share, List<LayerShare> layers) {
        public ThreadShare {
            layers = List.copyOf(layers);
        }
    }

    /** Equal when every field is, the tree by its content (a record compares arrays by identity). */
    @Override
    public boolean equals(Object o) {
        return o instanceof CpuProfile p && profiler.equals(p.profiler) && event.equals(p.event)
                && Objects.equals(fallback, p.fallback) && intervalMicros == p.intervalMicros && samples == p.samples
                && kernelFrames == p.kernelFrames && layers.equals(p.layers) && threads.equals(p.threads)
                && frames.equals(p.frames) && Arrays.equals(tree, p.tree);
    }

    @Override
    public int hashCode() {
        return Objects.hash(profiler, event, fallback, intervalMicros, samples, kernelFrames, layers, threads, frames,
                Arrays.hashCode(tree));
    }

    @Override
    public String toString() {
        return "CpuProfile[profiler=" + profiler + ", samples=" + samples + ", layers=" + layers + ", nodes="
                + tree.length / 3 + "]";
    }

    /** This layer's samples and share; a zero one when it had none. */
    public LayerShare layer(Layer layer) {
        return layers.stream().filter(l -> l.layer() == layer).findFirst()
                .orElse(new LayerShare(layer, layer.words(), 0, 0));
    }

    /** This layer's share of all samples, 0 when it had none. */
    public double share(Layer layer) {
        return layer(layer).share();
    }
}
