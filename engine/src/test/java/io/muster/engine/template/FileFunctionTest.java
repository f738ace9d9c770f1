package io.muster.engine.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code file(PATH)} reads only regular files, and at most {@link Functions#FILE_LIMIT} bytes of them. */
class FileFunctionTest {
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    private Object render(String text) {
        return Template.parse(text).render(new Scope(Map.of(), Map.of(), Map.of(), dir, Lookup.NONE));
    }

    @Test
    void readsAFileRelativeToTheManifest() throws Exception {
        Files.writeString(dir.resolve("banner"), "héllo\n");
        assertThat(render("${ file('banner') }")).isEqualTo("héllo\n");
    }

    @Test
    void aFifoIsRefusedWithoutWaitingForAWriter() throws Exception {
        Path fifo = dir.resolve("fifo");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(fifo).exists();

        assertTimeoutPreemptively(PATIENCE, () -> assertThatThrownBy(() -> render("${ file('fifo') }"))
                .isInstanceOf(TemplateException.class)
                .hasMessage("file('fifo'): " + fifo + " is a device, FIFO or socket, not a regular file"));
    }

    @Test
    void anEndlessDeviceIsRefused() {
        assertTimeoutPreemptively(PATIENCE, () -> assertThatThrownBy(() -> render("${ file('/dev/zero') }"))
                .hasMessage("file('/dev/zero'): /dev/zero is a device, FIFO or socket, not a regular file"));
    }

    @Test
    void aDirectoryIsRefused() {
        assertThatThrownBy(() -> render("${ file('.') }")).hasMessage("file('.'): " + dir.resolve(".") + " is a directory, not a regular file");
    }

    @Test
    void aFileOverTheLimitIsRefusedWithoutReadingItIntoMemory() throws Exception {
        Path big = dir.resolve("big");
        try (RandomAccessFile file = new RandomAccessFile(big.toFile(), "rw")) {
            file.setLength(3L << 30); // sparse: 3 GiB on paper, nothing on disk
        }
        assertTimeoutPreemptively(PATIENCE, () -> assertThatThrownBy(() -> render("${ file('big') }"))
                .hasMessage("file('big'): " + big + " is over 16 MiB, the most file() reads"));
    }

    @Test
    void aFileOfExactlyTheLimitIsRead() throws Exception {
        Path full = dir.resolve("full");
        try (RandomAccessFile file = new RandomAccessFile(full.toFile(), "rw")) {
            file.setLength(Functions.FILE_LIMIT);
        }
        assertThat((String) render("${ file('full') }")).hasSize(Functions.FILE_LIMIT);
    }

    @Test
    void aLinkThatAnotherUserOwnsIsNotFollowedSoThatUserCannotReadRootsFilesThroughAManifest() throws Exception {
        Path secret = Files.writeString(dir.resolve("secret"), "root only");
        Path link = Files.createSymbolicLink(dir.resolve("users-link"), secret);
        Files.setAttribute(link, "unix:uid", 65534, LinkOption.NOFOLLOW_LINKS);
        assertThatThrownBy(() -> render("${ file('users-link') }")).hasMessage("file('users-link'): cannot read " + link
                + ": bad ownership of symbolic link " + link + ": owned by nobody; muster follows only links owned by root");
        Files.createSymbolicLink(dir.resolve("roots-link"), secret);
        assertThat(render("${ file('roots-link') }")).isEqualTo("root only");
    }

    @Test
    void aFileThatIsNotUtf8SaysSo() throws Exception {
        Files.write(dir.resolve("binary"), new byte[] {(byte) 0xff, (byte) 0xfe});
        assertThatThrownBy(() -> render("${ file('binary') }")).hasMessage("file('binary'): " + dir.resolve("binary") + " is not UTF-8 text");
    }

    @Test
    void aMissingFileSaysSo() {
        assertThatThrownBy(() -> render("${ file('missing') }")).hasMessageStartingWith("file('missing'): cannot read " + dir.resolve("missing"));
    }
}
