package io.muster.cli;

import picocli.CommandLine.Option;

/** {@code --output text|json} of the fleet commands. */
final class OutputFlag {
    @Option(names = "--output", paramLabel = "FORMAT", description = "text or json (default: ${DEFAULT-VALUE}).", defaultValue = "text")
    RunFlags.Output output;

    boolean json() {
        return output == RunFlags.Output.json;
    }
}
