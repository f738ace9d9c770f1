package io.muster.engine.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Users and groups for a test, named with a prefix of their own ({@code mt1a2b3c4d-…}) so that {@link #close()}
 * removes every one the test made (homes and crontabs included) from the real system, whatever it did. Registered
 * as an extension before a test's {@code muster run} processes, it runs after they were stopped: one still running
 * would make the accounts again.
 */
public final class TestAccounts implements AutoCloseable, AfterEachCallback {
    private final String prefix = "mt" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt()) + "-";

    /** A name for a user or group of this test. */
    public String name(String suffix) {
        return prefix + suffix;
    }

    /** The line {@code getent DATABASE KEY} prints, or null when there is no such entry. */
    public static String getent(String database, String key) throws IOException, InterruptedException {
        String out = output("getent", database, key);
        return out.isEmpty() ? null : out.strip();
    }

    /** What the command printed (stdout and stderr), whatever its exit code. */
    public static String output(String... argv) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor();
        return out;
    }

    @Override
    public void afterEach(ExtensionContext context) throws IOException, InterruptedException {
        close();
    }

    @Override
    public void close() throws IOException, InterruptedException {
        for (String user : names(Path.of("/etc/passwd"))) {
            output("crontab", "-u", user, "-r");
            output("userdel", "-r", user);
        }
        for (String group : names(Path.of("/etc/group"))) output("groupdel", group);
    }

    private List<String> names(Path database) throws IOException {
        return Files.readAllLines(database).stream().map(line -> line.split(":", 2)[0]).filter(n -> n.startsWith(prefix)).toList();
    }
}
