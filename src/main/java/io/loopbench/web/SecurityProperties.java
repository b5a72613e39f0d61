package io.loopbench.web;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

import java.util.List;

/**
 * Who may drive the API, and how much they may send ({@code loopbench.security.*}).
 *
 * @param allowedHosts       host names (or addresses) besides {@code localhost}, {@code 127.0.0.1}, {@code [::1]} and
 *                           the configured {@code server.address} that a request's {@code Host} may name, with this
 *                           service's port; for a service opened up on a trusted network (docs/deployment.md, "Security")
 * @param maxRequestBodySize the largest request body; a larger one is refused with 413 before it is read
 */
@ConfigurationProperties("loopbench.security")
public record SecurityProperties(@DefaultValue({}) List<String> allowedHosts,
                                 @DefaultValue("256KB") DataSize maxRequestBodySize) {
}
