package io.muster.engine.util;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file muster reports as written survives a power cut: the content is synced before the rename, and the directory
 * holding the new entry after it. A power cut cannot be had in a test, so the system calls of a real write are
 * traced with strace.
 */
class AtomicFilesDurabilityTest {
    private static final Pattern RENAME = Pattern.compile("renameat2?\\((\\d+), \"\\.state\\.muster-[0-9a-f]+\", \\1, \"state\"(?:, 0)?\\) = 0");

    @TempDir
    Path dir;

    /** Run in a JVM of its own under strace: writes {@code args[1]} to the file {@code args[0]}. */
    public static void main(String[] args) throws Exception {
        AtomicFiles.writePrivate(Path.of(args[0]), args[1].getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void theDirectoryIsSyncedAfterTheRename() throws Exception {
        Path file = dir.resolve("private/state");
        List<String> calls = traced(file, "converged\n");
        assertThat(file).hasContent("converged");

        int rename = indexOf(calls, RENAME);
        assertThat(rename).as("the rename over the file, in %s", calls).isNotNegative();
        Matcher renamed = RENAME.matcher(calls.get(rename));
        assertThat(renamed.find()).isTrue();
        String directory = renamed.group(1);
        assertThat(calls.subList(0, rename)).as("the content synced before the rename").anyMatch(call -> call.matches("fsync\\(\\d+\\) = 0"));
        assertThat(calls.subList(rename + 1, calls.size())).as("the directory synced after it").contains("fsync(" + directory + ") = 0");
    }

    /** The renames and syncs of a JVM writing {@code content} to {@code file}, each as {@code call(args) = result}. */
    private List<String> traced(Path file, String content) throws Exception {
        Path trace = dir.resolve("trace");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(strace(), "-f", "-qq", "-e", "signal=none", "-e", "trace=rename,renameat,renameat2,fsync,fdatasync",
                "-o", trace.toString(), java, "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                AtomicFilesDurabilityTest.class.getName(), file.toString(), content)
                .redirectErrorStream(true).redirectOutput(dir.resolve("out").toFile()).start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(Files.readString(dir.resolve("out"))).isZero();
        return Files.readAllLines(trace).stream().map(line -> line.replaceFirst("^\\d+ +", "").replaceAll(" +=", " =")).toList();
    }

    private static int indexOf(List<String> calls, Pattern pattern) {
        for (int i = 0; i < calls.size(); i++) if (pattern.matcher(calls.get(i)).matches()) return i;
        return -1;
    }

    private static String strace() {
        for (String candidate : List.of("/usr/bin/strace", "/bin/strace")) {
            if (Files.isExecutable(Path.of(candidate))) return candidate;
        }
        throw new IllegalStateException("this test needs strace: apt-get install strace; ./run-tests installs it");
    }
}
