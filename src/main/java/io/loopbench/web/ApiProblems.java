package io.loopbench.web;

import io.loopbench.engine.spec.InvalidSpecException;
import io.loopbench.jobs.RunExceptions;
import io.loopbench.events.EventStreams;
import io.loopbench.storage.StorageException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

import java.net.URI;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Every API error as an RFC 9457 problem detail ({@code application/problem+json}) that names what was wrong:
 * the fields and allowed ranges of an invalid spec, the unknown field or wrong type in a body, the missing run.
 */
@RestControllerAdvice
public class ApiProblems extends ResponseEntityExceptionHandler {

    static final String TYPE_BASE = "https://loopbench.invalid/problems/";
    private static final Logger log = LoggerFactory.getLogger(ApiProblems.class);

    @ExceptionHandler(InvalidSpecException.class)
    ResponseEntity<Object> invalidSpec(InvalidSpecException e, WebRequest request) {
        ProblemDetail p = problem(HttpStatus.BAD_REQUEST, "invalid-spec", "Invalid run specification",
                e.getMessage());
        p.setProperty("violations", e.violations().stream().map(v -> new ViolationView(v.field(), v.value(),
                v.allowed(), v.message())).toList());
        return handleExceptionInternal(e, p, new HttpHeaders(), HttpStatus.BAD_REQUEST, request);
    }

    /** A violated rule as the API shows it. */
    record ViolationView(String field, String value, String allowed, String message) {
    }

    @ExceptionHandler(RunExceptions.NotFound.class)
    ResponseEntity<Object> notFound(RunExceptions.NotFound e, WebRequest request) {
        // "run-not-found", "Run not found"; "echo-server-not-found", "Echo server not found"; …
        String kind = e.kind();
        return handleExceptionInternal(e, problem(HttpStatus.NOT_FOUND, kind.replace(' ', '-') + "-not-found",
                Character.toUpperCase(kind.charAt(0)) + kind.substring(1) + " not found", e.getMessage()),
                new HttpHeaders(), HttpStatus.NOT_FOUND, request);
    }

    @ExceptionHandler(RunExceptions.Conflict.class)
    ResponseEntity<Object> conflict(RunExceptions.Conflict e, WebRequest request) {
        return handleExceptionInternal(e, problem(HttpStatus.CONFLICT, "run-state-conflict",
                "Not possible in the run's state", e.getMessage()), new HttpHeaders(), HttpStatus.CONFLICT, request);
    }

    @ExceptionHandler(RunExceptions.QueueFull.class)
    ResponseEntity<Object> queueFull(RunExceptions.QueueFull e, WebRequest request) {
        HttpHeaders headers = new HttpHeaders();
        headers.set(HttpHeaders.RETRY_AFTER, String.valueOf(e.retryAfterSeconds()));
        return handleExceptionInternal(e, problem(HttpStatus.SERVICE_UNAVAILABLE, "queue-full", "Run queue full",
                e.getMessage()), headers, HttpStatus.SERVICE_UNAVAILABLE, request);
    }

    /** An event stream over a cap: 429, naming the cap and its setting. */
    @ExceptionHandler(EventStreams.TooManySubscribers.class)
    ResponseEntity<Object> tooManySubscribers(EventStreams.TooManySubscribers e, WebRequest request) {
        ProblemDetail p = problem(HttpStatus.TOO_MANY_REQUESTS, "too-many-event-streams", "Too many event streams",
                e.getMessage());
        p.setProperty("setting", e.setting());
        p.setProperty("limit", e.limit());
        return handleExceptionInternal(e, p, new HttpHeaders(), HttpStatus.TOO_MANY_REQUESTS, request);
    }

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    ResponseEntity<Object> badParameter(MethodArgumentTypeMismatchException e, WebRequest request) {
        String detail = "parameter '" + e.getName() + "': '" + e.getValue() + "' is not valid"
                + (e.getMostSpecificCause() instanceof IllegalArgumentException iae && iae.getMessage() != null
                ? " (" + iae.getMessage() + ")" : "");
        return handleExceptionInternal(e, problem(HttpStatus.BAD_REQUEST, "invalid-parameter", "Invalid parameter",
                detail), new HttpHeaders(), HttpStatus.BAD_REQUEST, request);
    }

    /** The disk is full (507) or the data directory cannot be written (503): nothing was accepted. */
    @ExceptionHandler(StorageException.class)
    ResponseEntity<Object> storage(StorageException e, WebRequest request) {
        HttpStatus status = e.diskFull() ? HttpStatus.INSUFFICIENT_STORAGE : HttpStatus.SERVICE_UNAVAILABLE;
        log.error("Storage failed: {}", e.getMessage(), e);
        return handleExceptionInternal(e, problem(status, e.diskFull() ? "disk-full" : "storage-failed",
                "Cannot store", e.getMessage() + "; nothing was changed"), new HttpHeaders(), status, request);
    }

    /** Anything else is a defect of the service: a problem document too, never Boot's default error JSON. */
    @ExceptionHandler(Exception.class)
    ResponseEntity<Object> unexpected(Exception e, WebRequest request) {
        log.error("Unexpected error answering {}", request.getDescription(false), e);
        return handleExceptionInternal(e, problem(HttpStatus.INTERNAL_SERVER_ERROR, "internal-error",
                "Internal error", "the service failed unexpectedly (" + e.getClass().getSimpleName()
                        + "); its log has the details"), new HttpHeaders(), HttpStatus.INTERNAL_SERVER_ERROR, request);
    }

    @Override
    protected ResponseEntity<Object> handleHandlerMethodValidationException(HandlerMethodValidationException e,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        String detail = e.getParameterValidationResults().stream()
                .map(r -> "parameter '" + r.getMethodParameter().getParameterName() + "' = " + r.getArgument() + ": "
                        + r.getResolvableErrors().stream().map(x -> x.getDefaultMessage())
                        .collect(Collectors.joining(", ")))
                .collect(Collectors.joining("; "));
        return handleExceptionInternal(e, problem(HttpStatus.BAD_REQUEST, "invalid-parameter", "Invalid parameter",
                detail), headers, HttpStatus.BAD_REQUEST, request);
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException e,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof RequestGuard.BodyTooLarge tooLarge) {
                return handleExceptionInternal(e, problem(HttpStatus.CONTENT_TOO_LARGE, "body-too-large",
                        "Request body too large", tooLarge.getMessage()), headers, HttpStatus.CONTENT_TOO_LARGE,
                        request);
            }
        }
        return handleExceptionInternal(e, problem(HttpStatus.BAD_REQUEST, "unreadable-body", "Unreadable request body",
                describe(e)), headers, HttpStatus.BAD_REQUEST, request);
    }

    /** Names the problem in terms of the request: the field, what was given, what was expected. */
    static String describe(HttpMessageNotReadableException e) {
        Throwable cause = e.getMostSpecificCause();
        if (cause instanceof UnrecognizedPropertyException u) {
            return "unknown field '" + u.getPropertyName() + "'; known fields: " + u.getKnownPropertyIds().stream()
                    .map(Object::toString).sorted().collect(Collectors.joining(", "));
        }
        if (cause instanceof InvalidFormatException f) {
            String allowed = f.getTargetType() != null && f.getTargetType().isEnum()
                    ? "one of " + List.of(f.getTargetType().getEnumConstants()).stream()
                    .map(c -> c instanceof io.loopbench.engine.spec.Labeled l ? l.label() : c.toString())
                    .collect(Collectors.joining(", "))
                    : "a value of type " + simpleType(f.getTargetType());
            return "field '" + path(f) + "': " + quote(f.getValue()) + " is not " + allowed;
        }
        if (cause instanceof MismatchedInputException m) {
            return (m.getPath().isEmpty() ? "body" : "field '" + path(m) + "'") + ": expected "
                    + (m.getTargetType() == null ? "a JSON object" : "a value of type " + simpleType(m.getTargetType()));
        }
        if (cause instanceof JacksonException j) {
            return "malformed JSON: " + j.getOriginalMessage();
        }
        return "the body is missing or is not a JSON run specification";
    }

    private static String path(DatabindException e) {
        return e.getPath().stream().map(r -> r.getPropertyName() != null ? r.getPropertyName()
                : "[" + r.getIndex() + "]").collect(Collectors.joining("."));
    }

    private static String simpleType(Class<?> type) {
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
            return "integer";
        }
        if (type == Double.class || type == double.class) {
            return "number";
        }
        return type.getSimpleName();
    }

    private static String quote(Object value) {
        return value instanceof String ? "'" + value + "'" : String.valueOf(value);
    }

    static ProblemDetail problem(HttpStatus status, String type, String title, String detail) {
        ProblemDetail p = ProblemDetail.forStatusAndDetail(status, detail);
        p.setType(URI.create(TYPE_BASE + type));
        p.setTitle(title);
        return p;
    }
}
