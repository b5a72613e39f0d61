package io.loopbench.runs;

import io.loopbench.jobs.RunExceptions;
import io.loopbench.engine.spec.InvalidSpecException;
import io.loopbench.engine.spec.RunSpec;
import io.loopbench.engine.spec.Violation;
import io.loopbench.events.EventStreams;
import io.loopbench.system.SystemInfo;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.http.MediaType;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

import java.time.Instant;
import java.util.List;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.startsWith;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.ArgumentMatchers.isNull;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** The run API's contract and every error path, with the service replaced by a mock. */
@WebMvcTest(RunController.class)
@org.springframework.context.annotation.Import(LiveTimelines.class)
class RunControllerTest {

    @Autowired
    MockMvc mvc;
    @MockitoBean
    RunService runs;
    @MockitoBean
    RunEvents events;

    private ResultActions postRun(String body) throws Exception {
        return mvc.perform(post("/api/runs").contentType(MediaType.APPLICATION_JSON).content(body));
    }

    private static ResultActions problem(ResultActions r, int status) throws Exception {
        return r.andExpect(status().is(status))
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.status").value(status));
    }

    @Test
    void postAnswers202WithLocationTheEffectiveSpecAndTheEstimate() throws Exception {
        RunSpec spec = RunSpec.builder().protocol(io.loopbench.engine.spec.Protocol.UDP).build();
        RunRecord queued = RunRecord.queued("r1", spec, null, Isolation.FORKED, 16.5, Instant.now(),
                SystemInfo.current());
        when(runs.submit(eq(spec), eq(Isolation.FORKED), isNull())).thenReturn(queued);

        postRun("{\"protocol\":\"udp\"}")
                .andExpect(status().isAccepted())
                .andExpect(header().string("Location", "/api/runs/r1"))
                .andExpect(jsonPath("$.id").value("r1"))
                .andExpect(jsonPath("$.status").value("queued"))
                .andExpect(jsonPath("$.isolation").value("forked"))
                .andExpect(jsonPath("$.spec.protocol").value("udp"))
                .andExpect(jsonPath("$.spec.payloadBytes").value(1024))
                .andExpect(jsonPath("$.spec.windowMode").value("sliding"))
                .andExpect(jsonPath("$.estimatedSeconds").value(16.5));
    }

    @Test
    void aPlacementIsReadAndPassedOnAndItsRefusalIsAProblemNamingTheField() throws Exception {
        io.loopbench.cluster.Placement placement = new io.loopbench.cluster.Placement("agent-a", List.of(
                new io.loopbench.cluster.Placement.ClientShare("agent-b", 8),
                new io.loopbench.cluster.Placement.ClientShare("agent-c", 4)));
        RunRecord queued = RunRecord.queued("r3", RunSpec.builder().clients(12).build(), null, Isolation.FORKED, 1,
                Instant.now(), SystemInfo.current(), placement);
        when(runs.submit(any(), eq(Isolation.FORKED), eq(placement))).thenReturn(queued);
        postRun("{\"placement\":{\"server\":\"agent-a\",\"clients\":[{\"agent\":\"agent-b\",\"clients\":8},"
                + "{\"agent\":\"agent-c\",\"clients\":4}]}}")
                .andExpect(status().isAccepted())
                .andExpect(jsonPath("$.placement.server").value("agent-a"))
                .andExpect(jsonPath("$.placement.clients[1].clients").value(4))
                .andExpect(jsonPath("$.acrossHosts.length()").value(0));

        when(runs.submit(any(), any(), eq(new io.loopbench.cluster.Placement("agent-x", List.of()))))
                .thenThrow(new InvalidSpecException(List.of(new Violation("placement", "agent-x",
                        "no placement: clustering is off (loopbench.cluster.enabled)"))));
        postRun("{\"placement\":{\"server\":\"agent-x\"}}")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.violations[0].field").value("placement"));
    }

    @Test
    void isolationInProcessIsAccepted() throws Exception {
        RunRecord queued = RunRecord.queued("r2", RunSpec.defaults(), null, Isolation.IN_PROCESS, 1, Instant.now(),
                SystemInfo.current());
        when(runs.submit(any(), eq(Isolation.IN_PROCESS), isNull())).thenReturn(queued);
        postRun("{\"isolation\":\"in-process\"}").andExpect(status().isAccepted())
                .andExpect(jsonPath("$.isolation").value("in-process"));
    }

    @Test
    void invalidSpecIs400ListingEveryViolation() throws Exception {
        when(runs.submit(any(), any(), any())).thenThrow(new InvalidSpecException(List.of(
                new Violation("clients", "0", "1 … 1,024"), new Violation("seconds", "0.0", "more than 0"))));

        problem(postRun("{\"clients\":0,\"seconds\":0}"), 400)
                .andExpect(jsonPath("$.title").value("Invalid run specification"))
                .andExpect(jsonPath("$.violations[0].field").value("clients"))
                .andExpect(jsonPath("$.violations[0].value").value("0"))
                .andExpect(jsonPath("$.violations[0].allowed").value("1 … 1,024"))
                .andExpect(jsonPath("$.violations[1].field").value("seconds"));
    }

    @Test
    void malformedJsonIs400() throws Exception {
        problem(postRun("{\"clients\": 4,"), 400).andExpect(jsonPath("$.detail", startsWith("malformed JSON")));
        verifyNoInteractions(runs);
    }

    @Test
    void unknownFieldIs400NamingIt() throws Exception {
        problem(postRun("{\"clients\": 4, \"threads\": 2}"), 400)
                .andExpect(jsonPath("$.detail", startsWith("unknown field 'threads'")))
                .andExpect(jsonPath("$.detail", containsString("ioThreads")));
        verifyNoInteractions(runs);
    }

    @Test
    void wrongTypeIs400NamingTheFieldAndTheExpectedType() throws Exception {
        problem(postRun("{\"clients\": \"many\"}"), 400)
                .andExpect(jsonPath("$.detail").value("field 'clients': 'many' is not a value of type integer"));
        // an unknown enum value is a violation like any other, named with the rest of the body's
        problem(postRun("{\"protocol\": \"sctp\"}"), 400)
                .andExpect(jsonPath("$.violations[0].field").value("protocol"))
                .andExpect(jsonPath("$.violations[0].allowed").value("one of tcp, udp, tcps, websocket, wss, http, https, h2c, h2, grpc, grpcs"));
        problem(postRun("[1,2]"), 400).andExpect(jsonPath("$.detail", startsWith("body: expected")));
        problem(postRun("{\"clients\": 1.5}"), 400).andExpect(jsonPath("$.detail", startsWith("field 'clients'")));
        verifyNoInteractions(runs);
    }

    @Test
    void wrongMediaTypeIs415() throws Exception {
        problem(mvc.perform(post("/api/runs").contentType(MediaType.TEXT_PLAIN).content("clients=4")), 415);
        verifyNoInteractions(runs);
    }

    @Test
    void anUnexpectedErrorAndAFullDiskAreProblemsToo() throws Exception {
        when(runs.submit(any(), any(), any())).thenThrow(new IllegalStateException("a defect"));
        problem(postRun("{}"), 500).andExpect(jsonPath("$.type", containsString("/internal-error")))
                .andExpect(jsonPath("$.detail", containsString("IllegalStateException")));
        doThrow(new io.loopbench.storage.StorageException("cannot write r1",
                new java.io.IOException("No space left on device"), true)).when(runs).submit(any(), any(), any());
        problem(postRun("{}"), 507).andExpect(jsonPath("$.detail", containsString("nothing was changed")));
        when(runs.get("x")).thenThrow(new io.loopbench.storage.StorageException("cannot read", null, false));
        problem(mvc.perform(get("/api/runs/x")), 503);
    }

    @Test
    void fullQueueIs503WithRetryAfter() throws Exception {
        when(runs.submit(any(), any(), any())).thenThrow(new RunExceptions.QueueFull(100, 42));
        problem(postRun("{}"), 503).andExpect(header().string("Retry-After", "42"));
    }

    @Test
    void anEventStreamOverItsCapIs429NamingTheCapAndItsSetting() throws Exception {
        RunRecord queued = RunRecord.queued("r1", RunSpec.defaults(), null, Isolation.FORKED, 1, Instant.now(),
                SystemInfo.current());
        when(runs.get("r1")).thenReturn(queued);
        when(events.subscribe(any())).thenThrow(new EventStreams.TooManySubscribers(
                "16 event streams of r1 are open, the most one run or matrix may have", "max-subscribers-per-record",
                16));

        problem(mvc.perform(get("/api/runs/r1/events").accept(MediaType.TEXT_EVENT_STREAM)), 429)
                .andExpect(jsonPath("$.type").value("https://loopbench.invalid/problems/too-many-event-streams"))
                .andExpect(jsonPath("$.title").value("Too many event streams"))
                .andExpect(jsonPath("$.detail", containsString(
                        "the most one run or matrix may have (loopbench.events.max-subscribers-per-record = 16)")))
                .andExpect(jsonPath("$.setting").value("loopbench.events.max-subscribers-per-record"))
                .andExpect(jsonPath("$.limit").value(16));
    }

    @Test
    void unknownRunIs404AndStateConflictsAre409() throws Exception {
        when(runs.get("nope")).thenThrow(new RunExceptions.NotFound("run", "nope"));
        when(runs.cancel("done")).thenThrow(new RunExceptions.Conflict("run done is already succeeded"));
        doThrow(new RunExceptions.Conflict("run busy is running; cancel it before deleting it"))
                .when(runs).delete("busy");

        problem(mvc.perform(get("/api/runs/nope")), 404).andExpect(jsonPath("$.detail").value("no run with id nope"))
                .andExpect(jsonPath("$.title").value("Run not found"))
                .andExpect(jsonPath("$.type").value(org.hamcrest.Matchers.endsWith("/run-not-found")));
        problem(mvc.perform(post("/api/runs/done/cancel")), 409);
        problem(mvc.perform(delete("/api/runs/busy")), 409)
                .andExpect(jsonPath("$.detail", containsString("cancel it before deleting it")));
    }

    @Test
    void listParametersAreValidated() throws Exception {
        problem(mvc.perform(get("/api/runs").param("status", "done")), 400)
                .andExpect(jsonPath("$.detail", containsString("'done' is not one of queued, running")));
        problem(mvc.perform(get("/api/runs").param("limit", "0")), 400)
                .andExpect(jsonPath("$.detail", containsString("limit")));
    }
}
