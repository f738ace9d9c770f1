package io.muster.engine.format.ccm;

import io.muster.engine.manifest.ManifestException;
import io.muster.engine.manifest.YNode;
import io.muster.engine.manifest.YamlReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import io.muster.engine.util.FileReads;
import java.nio.file.Path;
import java.util.Map;

/**
 * {@code ccm.resources_jet_file}: a Jet template, read from the manifest's directory and rendered with the manifest's
 * data ({@code [[ ]]} tags, as CCM renders it), whose output is the resource list {@code ccm.resources} would hold.
 * Problems in the list are placed in the template file, at the lines of its output.
 */
final class JetResources {
    private JetResources() {}

    static YNode read(YNode.Entry entry, Path directory, Render render, Map<String, Object> data, FileReads reads) throws ManifestException {
        if (!(entry.value().plain() instanceof String name) || name.isEmpty()) {
            throw new ManifestException(entry.value().mark(), "ccm.resources_jet_file: expected the name of a Jet template file, got "
                    + entry.value().describe());
        }
        Path file = directory.resolve(name).toAbsolutePath().normalize();
        reads.read(file);
        String rendered;
        try {
            rendered = render.jet(Files.readString(file, StandardCharsets.UTF_8), "[[", "]]", data);
        } catch (IOException e) {
            throw new ManifestException(entry.value().mark(), "ccm.resources_jet_file: cannot read " + file + ": " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new ManifestException(entry.value().mark(), "ccm.resources_jet_file: " + file + ": " + e.getMessage());
        }
        if (rendered.isBlank()) {
            throw new ManifestException(entry.value().mark(), "resources jet template produced no output, check for syntax errors");
        }
        return YamlReader.parse(file, rendered);
    }
}
