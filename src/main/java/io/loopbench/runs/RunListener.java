package io.loopbench.runs;

/** Told of every state change of a run, after it is stored. Called on the thread that made the change. */
public interface RunListener {

    void changed(RunRecord run);
}
