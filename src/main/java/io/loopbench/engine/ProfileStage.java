package io.loopbench.engine;

import io.loopbench.engine.profile.CpuProfile;

/**
 * With profiling, the measured phase's CPU profile, built from the samples {@link MeasuredPhaseStage} took (after the
 * memory reading: building it allocates); where none could be taken, or only Java frames, a note says why.
 */
final class ProfileStage implements RepetitionStage {

    @Override
    public void run(RepetitionState s) {
        if (s.profiling == null) {
            return;
        }
        if (s.noProfile == null) {
            try {
                s.cpuProfile = s.profiling.profile();
            } catch (IllegalStateException e) {
                s.noProfile = e.getMessage();
            }
        }
        CpuProfile p = s.cpuProfile;
        if (s.noProfile != null) {
            s.notes.add("no CPU profile: " + s.noProfile);
        } else if (p != null && p.fallback() != null) {
            s.notes.add("CPU profile by the " + p.profiler() + ", Java frames only: " + p.fallback());
        }
    }
}
