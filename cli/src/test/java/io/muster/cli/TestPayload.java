package io.muster.cli;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

/**
 * What {@code muster remote} uploads, made for tests on this machine (whose sshd "hosts" share its files): a jar that
 * runs this test JVM's muster (its manifest's Class-Path names the test class path, so no shaded jar need be built), with
 * an entry unique to the JVM so that its cache directory on the hosts is new, and a Java runtime made with jlink from
 * the running JDK, with the sha256 listing the deploy module writes beside it. The runtime is made once (about 25 s,
 * with its base class-data archive) and kept in target/ for later test runs.
 */
final class TestPayload {
    /** What muster needs of the JDK: jdeps --print-module-deps --ignore-missing-deps on the shaded jar. */
    private static final String MODULES = "java.base,java.compiler,java.desktop,java.naming,java.net.http,java.scripting,java.sql,"
            + "jdk.httpserver,jdk.jfr,jdk.management,jdk.unsupported";
    private static final Path RUNTIME = Path.of("target/test-runtime").toAbsolutePath();
    private static Path jar;

    private TestPayload() {}

    static synchronized Path runtime() throws IOException, InterruptedException {
        if (Files.isRegularFile(RUNTIME.resolve("muster-runtime.sha256"))) return RUNTIME;
        Path building = Files.createTempDirectory(RUNTIME.getParent(), "test-runtime-");
        Files.delete(building);
        Path jlink = Path.of(System.getProperty("java.home"), "bin", "jlink");
        Process process = new ProcessBuilder(jlink.toString(), "--add-modules", MODULES, "--strip-debug", "--compress", "zip-6", "--no-man-pages",
                "--no-header-files", "--generate-cds-archive", "--output", building.toString()).inheritIO().start();
        if (process.waitFor() != 0) throw new IOException("jlink failed: exit " + process.exitValue());
        StringBuilder listing = new StringBuilder();
        try (Stream<Path> files = Files.walk(building)) {
            for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                listing.append(sha256(file)).append("  ").append(building.relativize(file)).append('\n');
            }
        }
        Files.writeString(building.resolve("muster-runtime.sha256"), listing);
        Files.move(building, RUNTIME); // whole or not at all: a test run killed meanwhile leaves no half runtime
        return RUNTIME;
    }

    /** The jar, in target/: made once per JVM. */
    static synchronized Path jar() throws IOException {
        if (jar != null) return jar;
        Manifest manifest = new Manifest();
        Attributes main = manifest.getMainAttributes();
        main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        main.put(Attributes.Name.MAIN_CLASS, "io.muster.cli.Main");
        main.put(new Attributes.Name("Enable-Native-Access"), "ALL-UNNAMED");
        List<String> classPath = Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
                .map(entry -> Path.of(entry).toAbsolutePath().toUri().toString()).toList();
        main.put(Attributes.Name.CLASS_PATH, String.join(" ", classPath));
        Path made = Files.createDirectories(Path.of("target/remote-test")).resolve("muster-" + ProcessHandle.current().pid() + ".jar").toAbsolutePath();
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(made), manifest)) {
            out.putNextEntry(new JarEntry("test-payload-id"));
            out.write(UUID.randomUUID().toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        jar = made;
        return jar;
    }

    private static String sha256(Path file) {
        try (var in = new java.security.DigestInputStream(Files.newInputStream(file), MessageDigest.getInstance("SHA-256"))) {
            in.transferTo(OutputStream.nullOutputStream());
            return HexFormat.of().formatHex(in.getMessageDigest().digest());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
