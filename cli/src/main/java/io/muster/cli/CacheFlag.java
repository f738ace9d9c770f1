package io.muster.cli;

import picocli.CommandLine.Option;

/** {@code --no-cache}, of the one-shot commands whose compiled graph is cached under the state prefix. */
final class CacheFlag {
    @Option(names = "--no-cache", description = "Compile the manifest even when the compiled-graph cache holds its graph, unchanged inputs and all.")
    boolean off;
}
