package io.muster.remote;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class AgentCommandLineTest {
    @Test
    void runsTheAgentOnceThroughTheTunnelGoneWithTheConnection() {
        String command = new AgentCommandLine("/muster/", null, Duration.ofSeconds(300), Duration.ofMillis(2500))
                .render("/home/u/.cache/muster/r-ab/bin/java", "/home/u/.cache/muster/j-cd/muster.jar", "127.0.0.1:2222", 40123);

        assertThat(command).isEqualTo("'/home/u/.cache/muster/r-ab/bin/java' '-XX:+UseSerialGC' '-XX:TieredStopAtLevel=1' "
                + "'--enable-native-access=ALL-UNNAMED' '--sun-misc-unsafe-memory-access=allow' '-XX:+AutoCreateSharedArchive' "
                + "'-XX:SharedArchiveFile=/home/u/.cache/muster/j-cd/muster.jsa' '-Xlog:cds=off' '-Xlog:cds+dynamic=off' "
                + "'-jar' '/home/u/.cache/muster/j-cd/muster.jar' "
                + "'agent' '--once' '--stop-on-stdin-eof' '--host' '127.0.0.1:2222' '--etcd' 'http://127.0.0.1:40123' '--namespace' '/muster/' "
                + "'--converged-timeout' '300' '--connect-timeout' '2.500' '--lease-ttl' '10'");
    }

    @Test
    void aPrefixIsPassedAndEveryWordReachesTheAgentAsWritten() throws Exception {
        String odd = "it's a $HOME `x` \"dir\"";
        String command = new AgentCommandLine("/ns/remote/r1/", odd, Duration.ofSeconds(5), Duration.ofSeconds(5))
                .render("/bin/echo", "my jar", "web1", 1);

        Process shell = new ProcessBuilder("sh", "-c", command.replace("'/bin/echo'", "printf '%s\\n'")).start();
        List<String> words = new String(shell.getInputStream().readAllBytes()).lines().toList();
        assertThat(shell.waitFor()).isZero();
        assertThat(words).containsSubsequence("-jar", "my jar", "agent").endsWith("--prefix", odd);
    }

    @Test
    void percentHInThePrefixIsTheHostsName() {
        assertThat(new AgentCommandLine("/muster/", "/tmp/state-%h", Duration.ofSeconds(5), Duration.ofSeconds(5)).render("java", "j", "web1", 1))
                .endsWith(" '--prefix' '/tmp/state-web1'");
    }
}
