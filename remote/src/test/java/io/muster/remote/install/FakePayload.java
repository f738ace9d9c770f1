package io.muster.remote.install;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Random;

/** A small stand-in for muster's jar and jlink runtime: a jar of random bytes, a bin/java script, a library and a link. */
final class FakePayload {
    private FakePayload() {}

    static Payload create(Path dir, int jarBytes) throws IOException {
        Path jar = dir.resolve("muster.jar");
        byte[] content = new byte[jarBytes];
        new Random(jarBytes).nextBytes(content);
        Files.write(jar, content);
        Path runtime = dir.resolve("runtime");
        Path java = runtime.resolve("bin/java");
        Files.createDirectories(java.getParent());
        Files.writeString(java, "#!/bin/sh\necho fake java \"$@\"\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.createDirectories(runtime.resolve("lib"));
        Files.write(runtime.resolve("lib/modules"), new byte[20_000]);
        Files.createDirectories(runtime.resolve("legal/java.base"));
        Files.createDirectories(runtime.resolve("legal/java.logging"));
        Files.writeString(runtime.resolve("legal/java.base/LICENSE"), "GPLv2 with the classpath exception\n");
        Files.createSymbolicLink(runtime.resolve("legal/java.logging/LICENSE"), Path.of("../java.base/LICENSE"));
        return new Payload(jar, runtime);
    }
}
