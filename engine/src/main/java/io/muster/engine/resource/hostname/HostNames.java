package io.muster.engine.resource.hostname;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Where the host's names are kept: the static name's file, the kernel's transient name, and machine-info. A name
 * not set there reads as null, so that a report says {@code absent}.
 */
record HostNames(Path staticFile, Path kernelFile, Path machineInfo) {
    private static final String PRETTY = "PRETTY_HOSTNAME=";

    String staticName() throws IOException {
        String name = Files.exists(staticFile) ? Files.readString(staticFile, StandardCharsets.UTF_8).strip() : "";
        return name.isEmpty() ? null : name;
    }

    void writeStatic(String name) throws IOException {
        Files.writeString(staticFile, name + "\n", StandardCharsets.UTF_8);
    }

    String transientName() throws IOException {
        return Files.readString(kernelFile, StandardCharsets.UTF_8).strip();
    }

    /** The kernel takes the new name written to its file (as {@code sethostname} would set it). */
    void writeTransient(String name) throws IOException {
        Files.writeString(kernelFile, name, StandardCharsets.UTF_8);
    }

    String prettyName() throws IOException {
        return machineInfoLines().stream().filter(l -> l.startsWith(PRETTY)).findFirst()
                .map(l -> unquote(l.substring(PRETTY.length()))).orElse(null);
    }

    /** Sets {@code PRETTY_HOSTNAME} in machine-info, keeping its other lines. */
    void writePretty(String name) throws IOException {
        List<String> lines = new ArrayList<>(machineInfoLines().stream().filter(l -> !l.startsWith(PRETTY)).toList());
        lines.add(PRETTY + "\"" + name.replace("\\", "\\\\").replace("\"", "\\\"") + "\"");
        Files.write(machineInfo, lines, StandardCharsets.UTF_8);
    }

    private List<String> machineInfoLines() throws IOException {
        return Files.exists(machineInfo) ? Files.readAllLines(machineInfo, StandardCharsets.UTF_8) : List.of();
    }

    private static String unquote(String value) {
        Optional<String> quoted = value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")
                ? Optional.of(value.substring(1, value.length() - 1).replace("\\\"", "\"").replace("\\\\", "\\")) : Optional.empty();
        return quoted.orElse(value);
    }
}
