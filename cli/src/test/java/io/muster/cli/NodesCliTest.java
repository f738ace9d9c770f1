package io.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.compile.CompileOptions;
import io.muster.engine.facts.Facts;
import io.muster.engine.testing.Manifests;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A manifest with a {@code nodes:} section, run locally: this host's name (its fqdn fact) decides what it gets. */
class NodesCliTest {
    @TempDir
    Path dir;

    private Manifests m;

    @BeforeEach
    void roles() {
        m = new Manifests(dir);
        m.write("this.yaml", "resources: [{file: [{ROOT/this.txt: {content: \"this host\\n\"}}]}]\n");
        m.write("web.yaml", "resources: [{file: [{ROOT/web.txt: {content: \"web\\n\"}}]}]\n");
        m.write("other.yaml", "resources: [{file: [{ROOT/other.txt: {content: \"other\\n\"}}]}]\n");
    }

    @Test
    void validateAndPlanCompileForThisHostsName() {
        String local = (String) Facts.of(Map.of()).get(CompileOptions.HOST_FACT);
        Path site = m.write("site.yaml", """
                nodes:
                  "%s": this.yaml
                  default: other.yaml
                """.formatted(local));
        Cli validate = Cli.run("validate", site);
        assertThat(validate.out()).as(validate.err()).isEqualTo(site + ": ok, 2 resources, 1 edges\n");
        Cli plan = Cli.run("plan", site, "--tmp-prefix");
        assertThat(plan.out()).as(plan.err()).contains("file#" + dir.resolve("this.txt") + " changed").doesNotContain("other.txt");
        assertThat(dir.resolve("this.txt")).doesNotExist();
    }

    @Test
    void theFqdnFactNamesTheHostToCompileFor() {
        Path site = m.write("site.yaml", "nodes: {web*: web.yaml, default: other.yaml}\n");
        Cli apply = Cli.run("apply", site, "--tmp-prefix", "--fact", "fqdn=web7.example.com");
        assertThat(apply.exit()).as(apply.out() + apply.err()).isZero();
        assertThat(dir.resolve("web.txt")).hasContent("web");
        assertThat(dir.resolve("other.txt")).doesNotExist();
    }

    @Test
    void aBadPatternFailsValidationWithItsPlace() {
        Path site = m.write("site.yaml", "resources: []\nnodes:\n  /web[0-9/: web.yaml\n");
        Cli validate = Cli.run("validate", site);
        assertThat(validate.exit()).isEqualTo(1);
        assertThat(validate.err()).startsWith(site + ":3:3: nodes: '/web[0-9/' is not a valid regular expression: ");
    }
}
