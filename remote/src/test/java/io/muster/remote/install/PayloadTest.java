package io.muster.remote.install;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PayloadTest {
    @TempDir
    Path temp;

    @Test
    void theDigestIsStableAndChangesWithAnyFileItsModeOrItsName() throws Exception {
        Payload payload = FakePayload.create(temp, 1000);
        String digest = payload.digest();
        assertThat(new Payload(payload.jar(), payload.runtime()).digest()).isEqualTo(digest).hasSize(64);

        Files.writeString(payload.runtime().resolve("lib/modules"), "other");
        String changedContent = new Payload(payload.jar(), payload.runtime()).digest();
        assertThat(changedContent).isNotEqualTo(digest);

        Files.setPosixFilePermissions(payload.runtime().resolve("lib/modules"), PosixFilePermissions.fromString("rwxr-xr-x"));
        String changedMode = new Payload(payload.jar(), payload.runtime()).digest();
        assertThat(changedMode).isNotEqualTo(changedContent);

        Files.move(payload.runtime().resolve("lib/modules"), payload.runtime().resolve("lib/modules2"));
        assertThat(new Payload(payload.jar(), payload.runtime()).digest()).isNotEqualTo(changedMode);
    }

    @Test
    void theRuntimesListingStandsForHashingItAndGivesTheSameDigest() throws Exception {
        Payload payload = FakePayload.create(temp, 1000);
        String hashed = payload.digest();
        FakePayload.writeListing(payload);

        assertThat(new Payload(payload.jar(), payload.runtime()).digest()).isEqualTo(hashed);
    }

    @Test
    void aListingThatMissesAFileOfTheRuntimeIsAnError() throws Exception {
        Payload payload = FakePayload.create(temp, 1000);
        FakePayload.writeListing(payload);
        Files.writeString(payload.runtime().resolve("lib/added"), "after the listing");

        assertThatThrownBy(() -> new Payload(payload.jar(), payload.runtime()).digest()).isInstanceOf(IOException.class)
                .hasMessageContaining("does not list lib/added");
    }

    @Test
    void aListingThatNamesAMissingFileIsAnErrorWithItsLine() throws Exception {
        Payload payload = FakePayload.create(temp, 1000);
        FakePayload.writeListing(payload);
        Path listing = payload.runtime().resolve(Payload.RUNTIME_LISTING);
        int line = Files.readAllLines(listing).size() + 1;
        Files.writeString(listing, "1".repeat(64) + "  ./bin/gone\n", StandardOpenOption.APPEND);

        assertThatThrownBy(payload::digest).isInstanceOf(IOException.class)
                .hasMessage(listing + ":" + line + ":67: bin/gone is not a file of " + payload.runtime());
    }
}
