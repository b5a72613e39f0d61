/**
 * The measuring worker and its wire format: what the service forks for a repetition, and how the two talk. The
 * service writes one {@link io.loopbench.worker.WorkerRequest} as JSON on the worker's stdin; the worker answers with
 * one {@link io.loopbench.worker.WorkerEvent} per line of stdout (each phase as it starts, each timeline interval as it
 * closes, the result last) and writes what a person reads on stderr. Both sides use {@link
 * io.loopbench.worker.WorkerProtocol}; the service and the CLI depend on this package, never on each other.
 */
package io.loopbench.worker;
