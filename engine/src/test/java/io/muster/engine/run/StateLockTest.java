package io.muster.engine.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StateLockTest {
    private static final int NOBODY = 65534;

    @TempDir
    Path dir;

    @Test
    void createsTheMissingPrefix0700AndTheLockFile0600HoldingThePid() throws Exception {
        Path prefix = dir.resolve("state/prefix");
        try (StateLock lock = StateLock.tryAcquire(prefix)) {
            assertThat(lock.file()).isEqualTo(prefix.resolve("lock"));
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(prefix))).isEqualTo("rwx------");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(lock.file()))).isEqualTo("rw-------");
            assertThat(lock.file()).hasContent(ProcessHandle.current().pid() + "\n");
        }
    }

    @Test
    void aLockFileLeftOpenByAnOlderVersionIsMadePrivateButTheNamedPrefixIsLeftAsItIs() throws Exception {
        Path prefix = Files.createDirectories(dir.resolve("prefix"));
        Files.setPosixFilePermissions(prefix, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(prefix.resolve("lock"), "1\n");
        Files.setPosixFilePermissions(prefix.resolve("lock"), PosixFilePermissions.fromString("rw-r--r--"));
        try (StateLock lock = StateLock.tryAcquire(prefix)) {
            // the prefix may be shared (--prefix /var/lib): muster tightens only its own state directories
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(prefix))).isEqualTo("rwxr-xr-x");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(lock.file()))).isEqualTo("rw-------");
        }
    }

    @Test
    void aSecondAttemptWhileHeldNamesTheHolderAndOneAfterTheReleaseSucceeds() throws Exception {
        try (StateLock lock = StateLock.tryAcquire(dir)) {
            assertThatThrownBy(() -> StateLock.tryAcquire(dir))
                    .isInstanceOfSatisfying(StateLock.HeldException.class, e -> {
                        assertThat(e.holder()).isEqualTo(Long.toString(ProcessHandle.current().pid()));
                        assertThat(e.file()).isEqualTo(lock.file());
                    });
            assertThat(lock.file()).as("the failed attempt left the holder's lock and pid as they were")
                    .hasContent(ProcessHandle.current().pid() + "\n");
        }
        try (StateLock again = StateLock.tryAcquire(dir)) {
            assertThat(again.file()).exists();
        }
    }

    @Test
    void aStalePidFromAHolderThatDiedIsReplaced() throws Exception {
        Files.writeString(dir.resolve("lock"), "4194304999\n");
        try (StateLock lock = StateLock.tryAcquire(dir)) {
            assertThat(lock.file()).hasContent(ProcessHandle.current().pid() + "\n");
        }
    }

    @Test
    void aSymbolicLinkInPlaceOfTheLockFileIsNotFollowed() throws Exception {
        Path target = dir.resolve("elsewhere");
        Files.writeString(target, "precious\n");
        Files.createSymbolicLink(dir.resolve("lock"), target);

        assertThatThrownBy(() -> StateLock.tryAcquire(dir)).isInstanceOf(IOException.class)
                .hasMessage(dir.resolve("lock") + " is a symbolic link, which muster does not follow");

        assertThat(target).as("not truncated to hold a pid").hasContent("precious");
    }

    @Test
    void aLockFileThatIsNoRegularFileIsRefused() throws Exception {
        Files.createDirectory(dir.resolve("lock"));
        assertThatThrownBy(() -> StateLock.tryAcquire(dir)).isInstanceOf(IOException.class).hasMessageContaining("Is a directory");
    }

    @Test
    void aPrefixThatAnotherUserCanSwapForALinkIsRefusedBeforeAnyFileIsTouched() throws Exception {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x")); // nobody may pass through
        Path victims = Files.createDirectory(dir.resolve("victims"));
        Files.writeString(victims.resolve("lock"), "precious\n");
        Path users = Files.createDirectory(dir.resolve("users"));
        Files.setAttribute(users, "unix:uid", NOBODY);
        Process link = new ProcessBuilder("setpriv", "--reuid=" + NOBODY, "--regid=" + NOBODY, "--clear-groups",
                "ln", "-s", victims.toString(), users.resolve("prefix").toString()).inheritIO().start();
        assertThat(link.waitFor()).isZero();

        assertThatThrownBy(() -> StateLock.tryAcquire(users.resolve("prefix"))).isInstanceOf(IOException.class)
                .hasMessageStartingWith("bad ownership or modes for directory " + users + ": owned by nobody");

        assertThat(victims.resolve("lock")).as("not truncated to hold a pid").hasContent("precious");
    }
}
