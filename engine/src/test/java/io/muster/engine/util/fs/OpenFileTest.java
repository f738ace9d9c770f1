package io.muster.engine.util.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A file is read in chunks sized to it: whatever its size, all of it comes back. */
class OpenFileTest {
    @TempDir
    Path dir;

    @Test
    void aFileIsReadWholeWhateverItsSize() throws Exception {
        Random random = new Random(7);
        for (int size : new int[] {0, 1, 48, 4095, 4096, 4097, 65535, 65536, 65537, 300_000}) {
            byte[] content = new byte[size];
            random.nextBytes(content);
            Path file = Files.write(dir.resolve("f" + size), content);
            try (OpenFile opened = OpenFile.regular(file)) {
                assertThat(opened.readAll()).as("%d bytes", size).isEqualTo(content);
            }
        }
    }
}
