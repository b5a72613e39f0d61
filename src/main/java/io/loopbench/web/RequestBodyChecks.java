package io.loopbench.web;

import io.loopbench.engine.spec.InvalidSpecException;
import io.loopbench.engine.spec.Labeled;
import io.loopbench.engine.spec.Validatable;
import io.loopbench.engine.spec.Violation;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.core.MethodParameter;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.servlet.mvc.method.annotation.RequestBodyAdviceAdapter;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.deser.DeserializationProblemHandler;

import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Reports a value outside an enum together with every other rule a request body breaks, as one 400: while a request
 * body is read, an unknown enum value is noted (and read as "omitted") instead of ending the read; once the body is
 * read, the notes and the body's own {@link Validatable#violations()} are thrown together. Outside a request
 * (stored files, the worker) an unknown enum value fails the read as before. Stateless; notes live in the request.
 */
@ControllerAdvice
public class RequestBodyChecks extends RequestBodyAdviceAdapter {

    private static final String NOTES = RequestBodyChecks.class.getName() + ".enumViolations";

    /**
     * Installs the note-taking on the service's JSON mapper. Declared here rather than in a configuration class so
     * that the MVC test slices, which load controller advice but no configuration, read bodies as the service does.
     */
    @org.springframework.context.annotation.Bean
    static JsonMapperBuilderCustomizer unknownEnumsNoted() {
        return builder -> builder.addHandler(new DeserializationProblemHandler() {
            @Override
            public Object handleWeirdStringValue(DeserializationContext ctxt, Class<?> targetType, String value,
                                                 String failureMsg) {
                RequestAttributes request = RequestContextHolder.getRequestAttributes();
                if (request == null || !targetType.isEnum()) {
                    return NOT_HANDLED;
                }
                notes(request).add(new Violation(field(ctxt), value, "one of " + Arrays.stream(
                        targetType.getEnumConstants()).map(c -> c instanceof Labeled l ? l.label() : c.toString())
                        .collect(Collectors.joining(", "))));
                return null;
            }
        });
    }

    @SuppressWarnings("unchecked")
    private static List<Violation> notes(RequestAttributes request) {
        Object notes = request.getAttribute(NOTES, RequestAttributes.SCOPE_REQUEST);
        if (notes == null) {
            notes = new ArrayList<Violation>();
            request.setAttribute(NOTES, notes, RequestAttributes.SCOPE_REQUEST);
        }
        return (List<Violation>) notes;
    }

    /** The field as the API names it: {@code protocol}, {@code protocols[1]}. */
    private static String field(DeserializationContext ctxt) {
        String pointer = ctxt.getParser().streamReadContext().pathAsPointer().toString();
        return pointer.substring(1).replaceAll("/(\\d+)(?=/|$)", "[$1]").replace('/', '.');
    }

    @Override
    public boolean supports(MethodParameter parameter, Type targetType,
                            Class<? extends HttpMessageConverter<?>> converterType) {
        return true;
    }

    @Override
    public Object afterBodyRead(Object body, HttpInputMessage message, MethodParameter parameter, Type targetType,
                                Class<? extends HttpMessageConverter<?>> converterType) {
        RequestAttributes request = RequestContextHolder.getRequestAttributes();
        Object notes = request == null ? null : request.getAttribute(NOTES, RequestAttributes.SCOPE_REQUEST);
        if (notes instanceof List<?> list && !list.isEmpty()) {
            Set<Violation> all = new LinkedHashSet<>(notes(request));
            if (body instanceof Validatable v) {
                // the unknown values were read as omitted (null in a list): not named twice
                Set<String> named = all.stream().map(x -> x.field().replaceAll("\\[\\d+]$", ""))
                        .collect(Collectors.toSet());
                v.violations().stream().filter(x -> !named.contains(x.field())).forEach(all::add);
            }
            throw new InvalidSpecException(List.copyOf(all));
        }
        return body;
    }
}
