package io.loopbench.web;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.info.License;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The OpenAPI document's title and description (Swagger UI at /swagger-ui.html). */
@Configuration(proxyBeanMethods = false)
class OpenApiConfiguration {

    @Bean
    OpenAPI loopbenchOpenApi() {
        return new OpenAPI().info(new Info()
                .title("loopbench")
                .version("v1")
                .description("Runs Reactor Netty TCP and UDP echo measurements over loopback and reports round "
                        + "trips/s, MiB/s, round-trip time percentiles (µs), CPU and RSS as medians over "
                        + "repetitions with min/max. Times are in seconds unless a field name says otherwise "
                        + "(…Us: microseconds, …Millis: milliseconds, …Bytes: bytes).")
                .license(new License().name("Apache-2.0")));
    }
}
