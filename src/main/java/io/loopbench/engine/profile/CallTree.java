package io.loopbench.engine.profile;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A call tree of CPU samples being built: stacks added one by one ({@link #add}, {@link #addCollapsed}) or whole
 * profiles merged ({@link #add(CpuProfile)}), then frozen into a {@link CpuProfile}. Each stack starts with its
 * thread's frame, {@code [name]}. Not thread-safe: one thread builds it.
 */
public final class CallTree {

    /** A thread frame as async-profiler writes it: {@code [name tid=123]}. */
    private static final Pattern TID = Pattern.compile(" tid=\\d+]$");

    private final List<String> frames = new ArrayList<>();
    private final Map<String, Integer> frameIndex = new HashMap<>();
    /** Node 0 is the root above the threads; node i's parent, frame and self samples. */
    private int[] parent = new int[256];
    private int[] frame = new int[256];
    private long[] self = new long[256];
    private int nodes = 1;
    private final Map<Long, Integer> children = new HashMap<>();
    private long samples;

    public long samples() {
        return samples;
    }

    /** One stack, its thread's frame first, sampled {@code count} times. */
    public void add(List<String> stack, long count) {
        int node = 0;
        for (String f : stack) {
            node = child(node, frameId(f));
        }
        self[node] += count;
        samples += count;
    }

    /**
     * Stacks in the collapsed format ({@code thread;frame;…;leaf count} per line, as async-profiler and
     * FlameGraph write them); a thread frame's {@code tid=} is dropped, so that threads of one name merge.
     */
    public void addCollapsed(String collapsed) {
        collapsed.lines().forEach(line -> {
            int space = line.lastIndexOf(' ');
            if (space <= 0) {
                return;
            }
            long count = Long.parseLong(line.substring(space + 1));
            String[] stack = line.substring(0, space).split(";");
            if (stack[0].startsWith("[")) {
                stack[0] = TID.matcher(stack[0]).replaceFirst("]");
            }
            add(Arrays.asList(stack), count);
        });
    }

    /** Every node of a stored profile, merged into this tree. */
    public void add(CpuProfile profile) {
        add(profile, "");
    }

    /**
     * Every node of a stored profile, merged into this tree, its threads' frames renamed {@code [<prefix>name]}: a
     * host's threads kept apart from another's.
     */
    public void add(CpuProfile profile, String threadPrefix) {
        int[] t = profile.tree();
        int[] mine = new int[t.length / 3];
        for (int i = 0; i < mine.length; i++) {
            int p = t[3 * i];
            String f = profile.frames().get(t[3 * i + 1]);
            if (p < 0 && f.startsWith("[")) {
                f = "[" + threadPrefix + f.substring(1);
            }
            mine[i] = child(p < 0 ? 0 : mine[p], frameId(f));
            self[mine[i]] += t[3 * i + 2];
            samples += t[3 * i + 2];
        }
    }

    /** The profile of the samples so far: layers and threads from every sample, the tree pruned. */
    public CpuProfile toProfile(String profiler, String event, String fallback, int intervalMicros) {
        Layer[] layer = new Layer[nodes];
        int[] thread = new int[nodes];
        long[] total = self.clone();
        boolean kernel = false;
        for (int n = nodes - 1; n > 0; n--) {
            total[parent[n]] += total[n];
        }
        Map<Layer, Long> byLayer = new EnumMap<>(Layer.class);
        Map<Integer, Map<Layer, Long>> byThread = new LinkedHashMap<>();
        for (int n = 1; n < nodes; n++) {
            String f = frames.get(frame[n]);
            kernel |= f.endsWith("_[k]");
            Layer starts = Layer.of(f);
            layer[n] = starts != null ? starts : layer[parent[n]];
            thread[n] = parent[n] == 0 ? n : thread[parent[n]];
            if (self[n] > 0) {
                byLayer.merge(layer[n], self[n], Long::sum);
                byThread.computeIfAbsent(thread[n], k -> new EnumMap<>(Layer.class)).merge(layer[n], self[n],
                        Long::sum);
            }
        }
        List<CpuProfile.LayerShare> layers = new ArrayList<>();
        for (Layer l : Layer.values()) {
            layers.add(share(l, byLayer.getOrDefault(l, 0L)));
        }
        layers.sort(Comparator.comparingLong(CpuProfile.LayerShare::samples).reversed());
        Pruned tree = pruned(total);
        return new CpuProfile(profiler, event, fallback, intervalMicros, samples, kernel, layers,
                threads(byThread, total), tree.frames, tree.nodes);
    }

    private record Pruned(List<String> frames, int[] nodes) {
    }

    /**
     * The tree without nodes under {@link CpuProfile#PRUNED_SHARE} of the samples, each folded into its kept parent's
     * self samples (a thread's frame is always kept), so that the counts still add up to every sample.
     */
    private Pruned pruned(long[] total) {
        long least = Math.max(1, (long) Math.ceil(samples * CpuProfile.PRUNED_SHARE));
        int[] kept = new int[nodes];
        Arrays.fill(kept, -1);
        long[] keptSelf = new long[nodes];
        int[] keptNode = new int[nodes];
        List<String> usedFrames = new ArrayList<>();
        Map<Integer, Integer> usedIndex = new HashMap<>();
        int count = 0;
        for (int n = 1; n < nodes; n++) {
            int p = parent[n];
            if (p == 0 || (kept[p] >= 0 && total[n] >= least)) {
                kept[n] = count;
                keptNode[count++] = n;
                keptSelf[kept[n]] += self[n];
            } else {
                int owner = p;
                while (kept[owner] < 0) {
                    owner = parent[owner];
                }
                keptSelf[kept[owner]] += self[n];
            }
        }
        int[] out = new int[3 * count];
        for (int k = 0; k < count; k++) {
            int n = keptNode[k];
            out[3 * k] = parent[n] == 0 ? -1 : kept[parent[n]];
            out[3 * k + 1] = usedIndex.computeIfAbsent(frame[n], f -> {
                usedFrames.add(frames.get(f));
                return usedFrames.size() - 1;
            });
            out[3 * k + 2] = Math.toIntExact(keptSelf[k]);
        }
        return new Pruned(usedFrames, out);
    }

    private int frameId(String f) {
        Integer id = frameIndex.get(f);
        if (id == null) {
            id = frames.size();
            frames.add(f);
            frameIndex.put(f, id);
        }
        return id;
    }

    /** The child of {@code node} with this frame, made if new. */
    private int child(int node, int frameId) {
        long key = ((long) node << 32) | frameId;
        Integer c = children.get(key);
        if (c != null) {
            return c;
        }
        if (nodes == parent.length) {
            parent = Arrays.copyOf(parent, nodes * 2);
            frame = Arrays.copyOf(frame, nodes * 2);
            self = Arrays.copyOf(self, nodes * 2);
        }
        parent[nodes] = node;
        frame[nodes] = frameId;
        children.put(key, nodes);
        return nodes++;
    }

    private List<CpuProfile.ThreadShare> threads(Map<Integer, Map<Layer, Long>> byThread, long[] total) {
        List<CpuProfile.ThreadShare> threads = new ArrayList<>();
        Map<Layer, Long> rest = new EnumMap<>(Layer.class);
        long restSamples = 0;
        for (Map.Entry<Integer, Map<Layer, Long>> e : byThread.entrySet()) {
            long t = total[e.getKey()];
            if (t < samples / 100.0) {
                restSamples += t;
                e.getValue().forEach((l, s) -> rest.merge(l, s, Long::sum));
            } else {
                threads.add(new CpuProfile.ThreadShare(frames.get(frame[e.getKey()]), t, share(t), shares(e.getValue())));
            }
        }
        threads.sort(Comparator.comparingLong(CpuProfile.ThreadShare::samples).reversed());
        if (restSamples > 0) {
            threads.add(new CpuProfile.ThreadShare("[other threads]", restSamples, share(restSamples), shares(rest)));
        }
        return threads;
    }

    private List<CpuProfile.LayerShare> shares(Map<Layer, Long> counts) {
        return counts.entrySet().stream().map(e -> share(e.getKey(), e.getValue()))
                .sorted(Comparator.comparingLong(CpuProfile.LayerShare::samples).reversed()).toList();
    }

    private CpuProfile.LayerShare share(Layer l, long count) {
        return new CpuProfile.LayerShare(l, l.words(), count, share(count));
    }

    private double share(long count) {
        return samples == 0 ? 0 : (double) count / samples;
    }
}
