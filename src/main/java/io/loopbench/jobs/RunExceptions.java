package io.loopbench.jobs;

/** The errors the run service reports to its callers; the API maps each to its problem type and status. */
public final class RunExceptions {

    private RunExceptions() {
    }

    /**
     * No record of this kind has this id (404): "no matrix with id x". Runs, matrices, echo servers and reports (of
     * either a run or a matrix, "record") each name their own kind.
     */
    public static final class NotFound extends RuntimeException {
        private final String kind;

        public NotFound(String kind, String id) {
            super("no " + kind + " with id " + id);
            this.kind = kind;
        }

        /** What was looked for: "run", "matrix", "echo server", "record". */
        public String kind() {
            return kind;
        }
    }

    /** The run is not in a state that allows the request (409). */
    public static final class Conflict extends RuntimeException {
        public Conflict(String message) {
            super(message);
        }
    }

    /** The queue is full (503); {@link #retryAfterSeconds()} estimates when a place frees up. */
    public static final class QueueFull extends RuntimeException {
        private final long retryAfterSeconds;

        public QueueFull(int capacity, long retryAfterSeconds) {
            super("the run queue is full (" + capacity + " runs waiting); retry later");
            this.retryAfterSeconds = retryAfterSeconds;
        }

        public long retryAfterSeconds() {
            return retryAfterSeconds;
        }
    }
}
