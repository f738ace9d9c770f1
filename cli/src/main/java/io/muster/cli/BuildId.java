package io.muster.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Properties;

/**
 * What tells this muster build from another, for the compiled-graph cache: the version and commit the build wrote
 * into version.properties, and for a build of uncommitted changes (commit "-dirty" or "unknown"), which may
 * differ from another of the same commit, the size and time of the jar or class directory it runs from.
 */
final class BuildId {
    private BuildId() {}

    static String of() {
        Properties build = new Properties();
        try (InputStream in = Main.class.getResourceAsStream("version.properties")) {
            if (in != null) build.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("reading muster's version.properties failed", e);
        }
        String commit = build.getProperty("commit", "unknown");
        String id = build.getProperty("version", "unknown") + " " + commit;
        return commit.endsWith("-dirty") || commit.equals("unknown") ? id + " " + codeSource() : id;
    }

    private static String codeSource() {
        try {
            Path code = Path.of(BuildId.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            BasicFileAttributes attributes = Files.readAttributes(code, BasicFileAttributes.class);
            return code + " " + attributes.size() + " " + attributes.lastModifiedTime().toMillis();
        } catch (IOException | URISyntaxException | RuntimeException e) {
            return "unknown code source";
        }
    }
}
