package io.muster.cli;

import io.muster.engine.metrics.Metrics;
import java.io.IOException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code --prometheus} and {@code --prometheus-listen}: serving a live run's metrics ({@code run}, {@code agent}). */
final class PrometheusFlags {
    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--prometheus", description = "Serve Prometheus metrics on /metrics.")
    boolean prometheus;

    @Option(names = "--prometheus-listen", paramLabel = "HOST:PORT",
            description = "Where to serve metrics (default: ${DEFAULT-VALUE}); implies --prometheus.", defaultValue = "127.0.0.1:9233")
    String listen;

    /** Whether metrics are served; a listen address that cannot be is a usage error. */
    boolean serve() {
        boolean serve = prometheus || spec.commandLine().getParseResult().hasMatchedOption("--prometheus-listen");
        String problem = serve ? Metrics.listenProblem(listen) : null;
        if (problem != null) throw new ParameterException(spec.commandLine(), "--prometheus-listen: " + problem);
        return serve;
    }

    /** Serves {@code metrics} when asked to; null when not. */
    Metrics.Endpoint start(Metrics metrics) throws IOException {
        return serve() ? metrics.serve(listen) : null;
    }
}
