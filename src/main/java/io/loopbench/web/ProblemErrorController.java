package io.loopbench.web;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.RequestMapping;

/**
 * What the servlet container forwards to {@code /error} (a failure outside Spring MVC's handlers, such as a
 * malformed request line or an error in a filter) answered as an RFC 9457 problem too, in place of Boot's default
 * error JSON.
 */
@Controller
class ProblemErrorController implements ErrorController {

    @RequestMapping("${server.error.path:${error.path:/error}}")
    ResponseEntity<ProblemDetail> error(HttpServletRequest request) {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        HttpStatus status = code instanceof Integer c && HttpStatus.resolve(c) != null
                ? HttpStatus.valueOf(c) : HttpStatus.INTERNAL_SERVER_ERROR;
        Object uri = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
        String detail = status.is5xxServerError()
                ? "the service failed answering " + uri + "; its log has the details"
                : status.getReasonPhrase() + " (" + uri + ")";
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(ApiProblems.problem(status, "http-" + status.value(), status.getReasonPhrase(), detail));
    }
}
