package io.loopbench.worker;

import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The worker's wire format, the same on both ends: a request or an event is one line of compact JSON. Stateless and
 * thread-safe.
 */
public final class WorkerProtocol {

    /** Changes whenever a request or an event changes shape; a worker refuses a request of another version. */
    public static final int VERSION = 1;

    /** In a holder, so that Jackson loads when the first line is read or written, not with this class. */
    private static final class Json {
        static final ObjectMapper MAPPER = JsonMapper.builder().build();
    }

    private WorkerProtocol() {
    }

    public static String line(WorkerRequest request) {
        return Json.MAPPER.writeValueAsString(request);
    }

    public static String line(WorkerEvent event) {
        return Json.MAPPER.writeValueAsString(event);
    }

    /** @throws tools.jackson.core.JacksonException when the line is not a request */
    public static WorkerRequest request(String line) {
        return Json.MAPPER.readValue(line, WorkerRequest.class);
    }

    /** @throws tools.jackson.core.JacksonException when the line is not an event (a JVM's own message, say) */
    public static WorkerEvent event(String line) {
        return Json.MAPPER.readValue(line, WorkerEvent.class);
    }
}
