package io.muster.engine.util;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Chars;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

/** The diffs {@code plan} and {@code --diff} show: unified, 3 lines of context, summaries where a diff would not help. */
class TextDiffTest {
    private static final Pattern HUNK = Pattern.compile("@@ -(\\d+)(?:,(\\d+))? \\+(\\d+)(?:,(\\d+))? @@");

    @Test
    void aChangedLineShowsWithThreeLinesOfContext() {
        assertThat(diff(numbered(1, 10), numbered(1, 10).replace("l5\n", "L5\n"))).isEqualTo("""
                --- a/etc/x
                +++ b/etc/x
                @@ -2,7 +2,7 @@
                 l2
                 l3
                 l4
                -l5
                +L5
                 l6
                 l7
                 l8
                """);
    }

    @Test
    void changesSixEqualLinesApartShareAHunkAndSevenApartDoNot() {
        String twenty = numbered(1, 20);
        assertThat(diff(twenty, twenty.replace("l2\n", "X\n").replace("l9\n", "Y\n"))).isEqualTo("""
                --- a/etc/x
                +++ b/etc/x
                @@ -1,12 +1,12 @@
                 l1
                -l2
                +X
                 l3
                 l4
                 l5
                 l6
                 l7
                 l8
                -l9
                +Y
                 l10
                 l11
                 l12
                """);
        assertThat(diff(twenty, twenty.replace("l2\n", "X\n").replace("l10\n", "Y\n"))).isEqualTo("""
                --- a/etc/x
                +++ b/etc/x
                @@ -1,5 +1,5 @@
                 l1
                -l2
                +X
                 l3
                 l4
                 l5
                @@ -7,7 +7,7 @@
                 l7
                 l8
                 l9
                -l10
                +Y
                 l11
                 l12
                 l13
                """);
    }

    @Test
    void insertedLinesCountInTheNewSide() {
        assertThat(diff(numbered(1, 5), "l1\nl2\nnew\nl3\nl4\nl5\n")).isEqualTo("""
                --- a/etc/x
                +++ b/etc/x
                @@ -1,5 +1,6 @@
                 l1
                 l2
                +new
                 l3
                 l4
                 l5
                """);
    }

    @Test
    void aNewFileComesFromDevNullAndAnEmptiedFileLosesEveryLine() {
        assertThat(TextDiff.unified("/etc/x", null, bytes("a\nb\n"))).isEqualTo("--- /dev/null\n+++ b/etc/x\n@@ -0,0 +1,2 @@\n+a\n+b\n");
        assertThat(diff("a\nb\n", "")).isEqualTo("--- a/etc/x\n+++ b/etc/x\n@@ -1,2 +0,0 @@\n-a\n-b\n");
        assertThat(TextDiff.unified("/etc/x", null, bytes(""))).as("an empty new file").isEmpty();
    }

    @Test
    void aLineWithoutNewlineIsMarkedAsGnuDiffDoes() {
        String noNewline = "\\ No newline at end of file\n";
        assertThat(diff("a\n", "a")).isEqualTo("--- a/etc/x\n+++ b/etc/x\n@@ -1 +1 @@\n-a\n+a\n" + noNewline);
        assertThat(diff("a", "a\n")).isEqualTo("--- a/etc/x\n+++ b/etc/x\n@@ -1 +1 @@\n-a\n" + noNewline + "+a\n");
        assertThat(diff("a\nb\n", "a\nc")).isEqualTo("--- a/etc/x\n+++ b/etc/x\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n" + noNewline);
        assertThat(diff("a\nb", "c\nb")).as("an unchanged last line as context").isEqualTo("--- a/etc/x\n+++ b/etc/x\n@@ -1,2 +1,2 @@\n-a\n+c\n b\n" + noNewline);
    }

    @Test
    void aCarriageReturnIsPartOfItsLine() {
        assertThat(diff("a\r\nb\r\n", "a\r\nc\r\n")).isEqualTo("--- a/etc/x\n+++ b/etc/x\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+c\r\n");
        assertThat(diff("a\n", "a\r\n")).isEqualTo("--- a/etc/x\n+++ b/etc/x\n@@ -1 +1 @@\n-a\n+a\r\n");
    }

    @Test
    void aRelativeLabelStillGetsTheGitPrefixes() {
        assertThat(TextDiff.unified("etc/x", bytes("a\n"), bytes("b\n"))).startsWith("--- a/etc/x\n+++ b/etc/x\n@@ -1 +1 @@\n");
    }

    @Test
    void binaryContentIsSummarisedByChecksum() {
        byte[] binary = {'a', 0, 'b'};
        assertThat(TextDiff.unified("/etc/x", binary, bytes("b")))
                .isEqualTo("binary content: sha256 " + TextDiff.sha256(binary) + " -> " + TextDiff.sha256(bytes("b")) + "\n");
        assertThat(TextDiff.unified("/etc/x", null, binary)).isEqualTo("binary content: sha256 (none) -> " + TextDiff.sha256(binary) + "\n");
        byte[] latin1 = {'c', 'a', 'f', (byte) 0xe9, '\n'};
        assertThat(TextDiff.unified("/etc/x", bytes("caf\u00e9\n"), latin1)).as("not UTF-8").startsWith("binary content: sha256 ");
        assertThat(diff("caf\u00e9\n", "caf\u00e8\n")).as("UTF-8").endsWith("-caf\u00e9\n+caf\u00e8\n");
    }

    @Test
    void pastTheLineLimitOnlyCountsSizesAndChecksumsAreShown() {
        String before = numbered(1, TextDiff.MAX_LINES + 1);
        String after = before.replace("l7\n", "seven\n");
        assertThat(diff(before, after)).isEqualTo("content differs, not diffed (more than 100000 lines): 100001 -> 100001 lines, "
                + before.length() + " -> " + after.length() + " bytes, sha256 " + TextDiff.sha256(bytes(before)) + " -> " + TextDiff.sha256(bytes(after)) + "\n");
        assertThat(diff(numbered(1, TextDiff.MAX_LINES), numbered(1, TextDiff.MAX_LINES).replace("l7\n", "seven\n")))
                .as("one line under the limit").startsWith("--- a/etc/x\n+++ b/etc/x\n@@ -4,7 +4,7 @@\n");
    }

    @Test
    void pastTheEditLimitOnlyCountsSizesAndChecksumsAreShown() {
        int half = TextDiff.MAX_EDITS / 2;
        assertThat(diff(numbered(1, half), numbered(half + 1, 2 * half)))
                .startsWith("--- a/etc/x\n+++ b/etc/x\n@@ -1,2500 +1,2500 @@\n-l1\n");
        assertThat(diff(numbered(1, half + 1), numbered(half + 2, 2 * half + 2)))
                .startsWith("content differs, not diffed (more than 5000 lines changed): 2501 -> 2501 lines, ")
                .hasLineCount(1);
        assertThat(TextDiff.unified("/etc/x", null, bytes(numbered(1, TextDiff.MAX_EDITS + 1))))
                .startsWith("content differs, not diffed (more than 5000 lines changed): 0 -> 5001 lines, 0 -> ")
                .contains("sha256 (none) -> ");
    }

    @Test
    void aFileWhoseEveryLineChangedIsSummarisedCheaply() {
        String before = numbered(1, TextDiff.MAX_LINES);
        String after = before.replace("l", "L");
        // java-diff-utils took over two minutes here; the limit stops the search after MAX_EDITS² / 2 steps.
        String diff = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> diff(before, after));
        assertThat(diff).startsWith("content differs, not diffed (more than 5000 lines changed): 100000 -> 100000 lines");
    }

    @Provide
    Arbitrary<String> texts() {
        return Arbitraries.of("a\n", "b\n", "c\n", "d\n").list().ofMaxSize(60).map(lines -> String.join("", lines))
                .flatMap(text -> Arbitraries.of(text, text.replaceFirst("\n$", ""))); // with and without a final newline
    }

    @Property(tries = 2000)
    void theHunksTurnTheOldTextIntoTheNew(@ForAll("texts") String before, @ForAll("texts") String after) {
        String diff = diff(before, after);
        if (before.equals(after)) {
            assertThat(diff).isEmpty();
        } else {
            assertThat(patched(before, diff)).isEqualTo(after);
        }
    }

    @Property(tries = 1000)
    void summariesCountLinesAsTheDiffDoes(@ForAll @Chars({'a', '\u00e9', '\n', '\r'}) @StringLength(max = 12) String text) {
        int newlines = text.length() - text.replace("\n", "").length();
        assertThat(TextDiff.lineCount(bytes(text))).isEqualTo(text.isEmpty() || text.endsWith("\n") ? newlines : newlines + 1);
    }

    @Property(tries = 3000)
    void contentIsTextExactlyWhenItIsUtf8WithoutNul(@ForAll @Size(max = 6) byte[] content) {
        boolean text;
        try {
            StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(content));
            text = IntStream.range(0, content.length).noneMatch(i -> content[i] == 0);
        } catch (CharacterCodingException e) {
            text = false;
        }
        assertThat(TextDiff.unified("/etc/x", null, content).startsWith("binary content: ")).isEqualTo(!text);
    }

    /** The old text patched with the diff, checking each hunk's header against its body and the old lines it claims. */
    private static String patched(String before, String diff) {
        List<String> original = before.isEmpty() ? List.of() : List.of(before.split("(?<=\n)"));
        List<String> lines = diff.lines().toList();
        assertThat(lines.get(0)).isEqualTo("--- a/etc/x");
        assertThat(lines.get(1)).isEqualTo("+++ b/etc/x");
        StringBuilder out = new StringBuilder();
        int written = 0;
        int line = 0;
        for (int at = 2; at < lines.size(); ) {
            Matcher header = HUNK.matcher(lines.get(at++));
            assertThat(header.matches()).as(diff).isTrue();
            int oldLeft = count(header.group(2));
            int newLeft = count(header.group(4));
            int start = Integer.parseInt(header.group(1)) - (oldLeft == 0 ? 0 : 1);
            assertThat(start).as("hunks in order, apart").isGreaterThanOrEqualTo(line);
            for (; line < start; line++, written++) out.append(original.get(line));
            assertThat(written).as("new start").isEqualTo(Integer.parseInt(header.group(3)) - (newLeft == 0 ? 0 : 1));
            while (oldLeft > 0 || newLeft > 0) {
                String body = lines.get(at++);
                boolean noNewline = at < lines.size() && lines.get(at).equals("\\ No newline at end of file");
                if (noNewline) at++;
                String text = body.substring(1) + (noNewline ? "" : "\n");
                char tag = body.charAt(0);
                if (tag != '+') {
                    assertThat(original.get(line++)).isEqualTo(text);
                    oldLeft--;
                }
                if (tag != '-') {
                    out.append(text);
                    written++;
                    newLeft--;
                }
            }
        }
        for (; line < original.size(); line++) out.append(original.get(line));
        return out.toString();
    }

    /** A hunk range's line count: absent means one. */
    private static int count(String group) {
        return group == null ? 1 : Integer.parseInt(group);
    }

    private static String diff(String before, String after) {
        return TextDiff.unified("/etc/x", bytes(before), bytes(after));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Lines {@code l<from>} to {@code l<to>}, each ending in a newline. */
    private static String numbered(int from, int to) {
        return IntStream.rangeClosed(from, to).mapToObj(i -> "l" + i + "\n").collect(Collectors.joining());
    }
}
