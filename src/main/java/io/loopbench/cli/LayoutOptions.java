package io.loopbench.cli;

import io.loopbench.engine.spec.Execution;
import io.loopbench.engine.spec.IoModel;
import io.loopbench.engine.spec.Offload;
import io.loopbench.engine.spec.Transport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * What {@code measure} sets beyond the load: the layout (IO model, threads, transport, execution, where the server's
 * work runs), the repetitions and a remote target. {@code recommend} has none of them: it races layouts, in repetitions of its own, on this host.
 */
@Command(resourceBundle = "io.loopbench.cli.SpecFieldHelp")
final class LayoutOptions {

    @Option(names = "--io-model", paramLabel = "shared|sharded", descriptionKey = "ioModel")
    IoModel ioModel;
    @Option(names = "--io-threads", descriptionKey = "ioThreads")
    Integer ioThreads;
    @Option(names = "--transport", paramLabel = "auto|nio|epoll|io_uring|jdk", descriptionKey = "transport")
    Transport transport;
    @Option(names = "--repetitions", descriptionKey = "repetitions")
    Integer repetitions;
    @Option(names = "--execution", paramLabel = "netty|reactive|virtual-threads", descriptionKey = "execution")
    Execution execution;
    @Option(names = "--target", paramLabel = "HOST:PORT", descriptionKey = "target")
    String target;
    @Option(names = "--offload", paramLabel = "loop|executor|virtual-threads|grpc-default", descriptionKey = "offload")
    Offload offload;
    @Option(names = "--offload-threads", paramLabel = "N", descriptionKey = "offloadThreads")
    Integer offloadThreads;
}
