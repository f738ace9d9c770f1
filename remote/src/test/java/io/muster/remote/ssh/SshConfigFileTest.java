package io.muster.remote.ssh;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SshConfigFileTest {
    @TempDir
    Path temp;

    private final LocalUser me = new LocalUser("alice", Path.of("/home/alice"), null);

    @Test
    void withoutAConfigTheLocalUserAndPort22Apply() throws Exception {
        Login login = SshConfigFile.resolve(temp.resolve("missing"), Destination.parse("web1"), me);
        assertThat(login).isEqualTo(new Login("alice", "web1", 22, List.of()));
    }

    @Test
    void theConfigGivesHostNameUserPortAndIdentityFilesAndTheDestinationWins() throws Exception {
        Path config = temp.resolve("config");
        Files.writeString(config, String.join("\n",
                "IdentityFile ~/.ssh/global",
                "Host web*",
                "  HostName %h.example.org",
                "  User deploy",
                "  Port 2222",
                "  IdentityFile \"~/keys/%r@%h\"",
                "Host *",
                "  User nobody",
                ""));

        assertThat(SshConfigFile.resolve(config, Destination.parse("web1"), me)).isEqualTo(new Login("deploy", "web1.example.org", 2222,
                List.of(Path.of("/home/alice/.ssh/global"), Path.of("/home/alice/keys/deploy@web1.example.org"))));
        assertThat(SshConfigFile.resolve(config, Destination.parse("root@web1:22"), me))
                .extracting(Login::user, Login::port).containsExactly("root", 22);
        assertThat(SshConfigFile.resolve(config, Destination.parse("db1"), me).user()).isEqualTo("nobody");
    }
}
