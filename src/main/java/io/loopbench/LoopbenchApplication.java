package io.loopbench;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The loopbench service: the control plane around the measurement engine in {@code io.loopbench.engine}. */
@SpringBootApplication
public class LoopbenchApplication {

    public static void main(String[] args) {
        SpringApplication.run(LoopbenchApplication.class, args);
    }
}
