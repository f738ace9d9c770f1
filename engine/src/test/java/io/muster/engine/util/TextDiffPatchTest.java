package io.muster.engine.util;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** muster's diffs, applied by the real {@code patch -p1} and {@code git apply} to the old content, give the new. */
class TextDiffPatchTest {
    private static final List<String> PATCH = List.of("patch", "-p1", "--batch", "--silent");
    private static final List<String> GIT_APPLY = List.of("git", "apply", "-p1", "-");

    @Test
    void aNewFile() throws Exception {
        assertApplies(null, "one\ntwo\n");
        assertApplies(null, "no newline");
    }

    @Test
    void anEmptiedFile() throws Exception {
        assertApplies("one\ntwo\n", "");
        assertApplies("no newline", "");
    }

    @Test
    void aChangeInTheMiddle() throws Exception {
        assertApplies(numbered(1, 20), numbered(1, 20).replace("l10\n", "ten\nten and a half\n"));
    }

    @Test
    void noFinalNewlineOnEitherSide() throws Exception {
        assertApplies("a\nb\n", "a\nb");
        assertApplies("a\nb", "a\nb\n");
        assertApplies("a\nb", "a\nc");
        assertApplies("a\nb", "c\nb");
        assertApplies(numbered(1, 10) + "end", numbered(1, 10).replace("l2\n", "two\n") + "end");
    }

    @Test
    void severalHunks() throws Exception {
        String before = numbered(1, 40);
        String after = before.replace("l2\n", "").replace("l20\n", "twenty\n").replace("l39\n", "l39\nforty minus a half\n");
        assertThat(TextDiff.unified("/etc/x", bytes(before), bytes(after))).containsSubsequence("@@ -", "@@ -", "@@ -");
        assertApplies(before, after);
    }

    @Test
    void windowsLineEnds() throws Exception {
        assertApplies("a\r\nb\r\nc\r\n", "a\r\nB\r\nc\r\n");
        assertApplies("a\nb\n", "a\r\nb\n");
    }

    @Provide
    Arbitrary<String> texts() {
        return Arbitraries.of("a\n", "b\n", "c\n", "\n").list().ofMaxSize(30).map(lines -> String.join("", lines))
                .flatMap(text -> Arbitraries.of(text, text.replaceFirst("\n$", ""))); // with and without a final newline
    }

    @Property(tries = 60)
    void anyTwoTexts(@ForAll("texts") String before, @ForAll("texts") String after) throws Exception {
        if (!before.equals(after)) assertApplies(before, after);
    }

    /** Both tools turn {@code before} (null: no file) into {@code after} with muster's diff. */
    private static void assertApplies(String before, String after) throws Exception {
        String diff = TextDiff.unified("/etc/x", before == null ? null : bytes(before), bytes(after));
        for (List<String> tool : List.of(PATCH, GIT_APPLY)) {
            assertThat(applied(tool, before, diff)).as("%s with\n%s", tool, diff).isEqualTo(after);
        }
    }

    /** What {@code etc/x} holds after {@code tool}, run in a new directory, applied {@code diff} to it. */
    private static String applied(List<String> tool, String before, String diff) throws Exception {
        Path dir = Files.createTempDirectory("muster-diff");
        try {
            Path file = Files.createDirectories(dir.resolve("etc")).resolve("x");
            if (before != null) Files.writeString(file, before);
            Path input = Files.writeString(dir.resolve("diff"), diff);
            ProcessBuilder builder = new ProcessBuilder(tool).directory(dir.toFile()).redirectInput(input.toFile())
                    .redirectErrorStream(true).redirectOutput(dir.resolve("out").toFile());
            builder.environment().put("GIT_CEILING_DIRECTORIES", dir.getParent().toString()); // never a repository above
            Process process;
            try {
                process = builder.start();
            } catch (IOException e) {
                throw new IllegalStateException("this test needs patch and git: apt-get install patch git; ./run-tests installs them", e);
            }
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(process.exitValue()).as("%s: %s", tool, Files.readString(dir.resolve("out"))).isZero();
            return Files.readString(file);
        } finally {
            try (Stream<Path> tree = Files.walk(dir)) {
                for (Path path : tree.sorted(Comparator.reverseOrder()).toList()) Files.delete(path);
            }
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Lines {@code l<from>} to {@code l<to>}, each ending in a newline. */
    private static String numbered(int from, int to) {
        return IntStream.rangeClosed(from, to).mapToObj(i -> "l" + i + "\n").collect(Collectors.joining());
    }
}
