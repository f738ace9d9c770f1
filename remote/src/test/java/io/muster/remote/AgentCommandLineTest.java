package io.muster.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.remote.install.RemoteCredentials;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentCommandLineTest {
    @Test
    void runsTheAgentOnceThroughTheTunnelGoneWithTheConnection() {
        String command = new AgentCommandLine("/muster/", null, Duration.ofSeconds(300), Duration.ofMillis(2500))
                .render("/home/u/.cache/muster/r-ab/bin/java", "/home/u/.cache/muster/j-cd/muster.jar", "127.0.0.1:2222", 40123, null);

        assertThat(command).isEqualTo("'/home/u/.cache/muster/r-ab/bin/java' '-XX:+UseSerialGC' '-XX:TieredStopAtLevel=1' "
                + "'--enable-native-access=ALL-UNNAMED' '--sun-misc-unsafe-memory-access=allow' '-XX:+AutoCreateSharedArchive' "
                + "'-XX:SharedArchiveFile=/home/u/.cache/muster/j-cd/muster.jsa' '-Xlog:cds=off' '-Xlog:cds+dynamic=off' "
                + "'-jar' '/home/u/.cache/muster/j-cd/muster.jar' "
                + "'agent' '--once' '--stop-on-stdin-eof' '--host' '127.0.0.1:2222' '--etcd' 'http://127.0.0.1:40123' '--namespace' '/muster/' "
                + "'--converged-timeout' '300' '--connect-timeout' '2.500' '--lease-ttl' '10'");
    }

    @Test
    void withACertificateTheAgentLogsInOverTlsAndTheShellRemovesItWhenTheAgentEndsKeepingItsExitStatus(@TempDir Path home) throws Exception {
        Path tls = Files.createDirectory(home.resolve(".tls-x"));
        Files.writeString(tls.resolve("etcd.key"), "secret");
        String command = new AgentCommandLine("/muster/", null, Duration.ofSeconds(5), Duration.ofSeconds(5))
                .render("/bin/sh", "j", "web1", 40123, new RemoteCredentials.Placed(tls.toString()));

        assertThat(command).contains("'--etcd' 'https://127.0.0.1:40123'", "'--etcd-cert' '" + tls + "/etcd.crt' '--etcd-key' '" + tls
                + "/etcd.key' '--etcd-ca' '" + tls + "/ca.crt'");
        // the "agent" here exits 3 at once: a shell ignores the arguments after -c's command
        Process shell = new ProcessBuilder("sh", "-c", command.replace("'/bin/sh'", "sh -c 'exit 3'")).start();
        assertThat(shell.waitFor()).isEqualTo(3);
        assertThat(tls).doesNotExist();
    }

    @Test
    void aPrefixIsPassedAndEveryWordReachesTheAgentAsWritten() throws Exception {
        String odd = "it's a $HOME `x` \"dir\"";
        String command = new AgentCommandLine("/ns/remote/r1/", odd, Duration.ofSeconds(5), Duration.ofSeconds(5))
                .render("/bin/echo", "my jar", "web1", 1, null);

        Process shell = new ProcessBuilder("sh", "-c", command.replace("'/bin/echo'", "printf '%s\\n'")).start();
        List<String> words = new String(shell.getInputStream().readAllBytes()).lines().toList();
        assertThat(shell.waitFor()).isZero();
        assertThat(words).containsSubsequence("-jar", "my jar", "agent").endsWith("--prefix", odd);
    }

    @Test
    void percentHInThePrefixIsTheHostsName() {
        assertThat(new AgentCommandLine("/muster/", "/tmp/state-%h", Duration.ofSeconds(5), Duration.ofSeconds(5)).render("java", "j", "web1", 1, null))
                .endsWith(" '--prefix' '/tmp/state-web1'");
    }
}
