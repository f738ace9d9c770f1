package io.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.testing.Manifests;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code apply} resource through the CLI: each rule of composing manifests. */
class ApplyResourceTest {
    @TempDir
    Path dir;

    private Path write(String name, String yaml) {
        return new Manifests(dir).write(name, yaml);
    }

    private static Cli apply(Path site, Object... extra) {
        Object[] args = new Object[extra.length + 3];
        args[0] = "apply";
        args[1] = site;
        args[2] = "--tmp-prefix";
        System.arraycopy(extra, 0, args, 3, extra.length);
        return Cli.run(args);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> entry(Cli run, String id) {
        List<Map<String, Object>> resources = (List<Map<String, Object>>) Manifests.json(run.out()).get("resources");
        return resources.stream().filter(r -> r.get("id").equals(id)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + id + " in " + run.out()));
    }

    @Test
    void aChildRunsInsideTheParentsRunAndItsResourcesNameTheirManifest() {
        write("lib/web.yaml", """
                resources:
                  - file: [{ROOT/web.conf: {content: "web\\n"}}]
                """);
        Path site = write("site.yaml", """
                resources:
                  - apply: [lib/web.yaml]
                """);
        Cli first = apply(site, "--detailed-exitcodes");
        assertThat(first.exit()).as(first.out() + first.err()).isEqualTo(2);
        assertThat(dir.resolve("web.conf")).hasContent("web");
        assertThat(first.out()).containsPattern("(?m)^file#" + dir + "/web.conf changed ensure,content \\d+ms \\[lib/web.yaml]$")
                .contains("apply#lib/web.yaml changed");
        Cli json = apply(site, "--output", "json");
        assertThat(entry(json, "file#" + dir + "/web.conf")).containsEntry("manifest", "lib/web.yaml").containsEntry("status", "stable");
        assertThat(entry(json, "apply#lib/web.yaml")).containsEntry("manifest", null).containsEntry("status", "stable");
    }

    @Test
    void noopCanOnlyBeStrengthenedByAChild() {
        write("lib/quiet.yaml", """
                resources:
                  - file: [{ROOT/quiet: {content: x}}]
                  - apply: [{loud.yaml: {noop: false}}]
                """);
        write("lib/loud.yaml", """
                resources:
                  - file: [{ROOT/loud: {content: x}}]
                """);
        Path site = write("site.yaml", """
                resources:
                  - apply: [{lib/quiet.yaml: {noop: true}}]
                  - file: [{ROOT/sibling: {content: x}}]
                """);
        Cli run = apply(site, "--output", "json");
        assertThat(dir.resolve("quiet")).as("the child asked for noop").doesNotExist();
        assertThat(dir.resolve("loud")).as("a grandchild cannot leave its parent's noop").doesNotExist();
        assertThat(dir.resolve("sibling")).as("the child's noop does not leak to its parent").exists();
        assertThat(entry(run, "file#" + dir + "/loud")).containsEntry("status", "changed");
        assertThat((String) entry(run, "apply#loud.yaml").get("message")).startsWith("noop: false ignored");
        assertThat(entry(run, "apply#lib/quiet.yaml")).as("what only would change refreshes nothing")
                .containsEntry("status", "stable").containsEntry("message", "2 child resources would change (noop)");

        Path plain = write("plain.yaml", """
                resources:
                  - apply: [{lib/loud.yaml: {noop: false}}]
                """);
        Cli noop = apply(plain, "--noop", "--output", "json");
        assertThat(dir.resolve("loud")).as("--noop cannot be weakened either").doesNotExist();
        assertThat((String) entry(noop, "apply#lib/loud.yaml").get("message")).startsWith("noop: false ignored");
    }

    /** A chain of {@code length} manifests m0 (the root) .. m{length-1}, each writing its own file. */
    private Path chain(int length) {
        for (int i = length - 1; i >= 0; i--) {
            String next = i + 1 < length ? "  - apply: [m" + (i + 1) + ".yaml]\n" : "";
            write("chain/m" + i + ".yaml", "resources:\n  - file: [{ROOT/m" + i + ": {content: x}}]\n" + next);
        }
        return dir.resolve("chain/m0.yaml");
    }

    @Test
    void tenNestedManifestsWorkElevenFailBeforeAnythingRunsNamingTheChain() {
        Cli ten = apply(chain(10));
        assertThat(ten.exit()).as(ten.err()).isZero();
        assertThat(dir.resolve("m9")).exists();

        Path root = chain(11);
        for (int i = 0; i < 10; i++) assertThat(dir.resolve("m" + i).toFile().delete()).isTrue();
        Cli eleven = apply(root);
        assertThat(eleven.exit()).isEqualTo(1);
        assertThat(eleven.err()).isEqualTo(dir.resolve("chain/m9.yaml") + ":3:13: apply#m10.yaml: manifests nested 11 deep, "
                + "more than the 10 allowed (--max-apply-depth): m0.yaml -> m1.yaml -> m2.yaml -> m3.yaml -> m4.yaml -> m5.yaml -> "
                + "m6.yaml -> m7.yaml -> m8.yaml -> m9.yaml -> m10.yaml\n");
        assertThat(dir.resolve("m0")).as("nothing ran").doesNotExist();

        assertThat(apply(chain(3), "--max-apply-depth", "2").err()).contains("manifests nested 3 deep, more than the 2 allowed");
        assertThat(Cli.run("validate", chain(3), "--max-apply-depth", "0").exit()).isEqualTo(64);
    }

    @Test
    void aManifestThatAppliesItselfIsACycle() {
        Path self = write("self.yaml", """
                resources:
                  - file: [{ROOT/never: {content: x}}]
                  - apply: [self.yaml]
                """);
        assertThat(apply(self).err()).isEqualTo(self + ":3:13: apply#self.yaml: apply cycle: self.yaml -> self.yaml\n");
        write("lib/b.yaml", "resources:\n  - apply: [../site.yaml]\n");
        Path site = write("site.yaml", "resources:\n  - apply: [lib/b.yaml]\n");
        Cli cycle = apply(site);
        assertThat(cycle.err()).isEqualTo(dir.resolve("lib/b.yaml") + ":2:13: apply#../site.yaml: apply cycle: "
                + "site.yaml -> lib/b.yaml -> site.yaml\n");
        assertThat(dir.resolve("never")).doesNotExist();
    }

    @Test
    void allowApplyFalseRejectsAChildThatAppliesOthersBeforeAnythingRuns() {
        write("vendor/tool.yaml", """
                resources:
                  - file: [{ROOT/tool: {content: x}}]
                  - apply: [more.yaml]
                """);
        write("vendor/more.yaml", "resources: []\n");
        Path site = write("site.yaml", """
                resources:
                  - file: [{ROOT/first: {content: x}}]
                  - apply:
                      - vendor/tool.yaml: {allow_apply: false}
                """);
        Cli run = apply(site);
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).isEqualTo(dir.resolve("vendor/tool.yaml") + ":3:13: apply#more.yaml: this manifest may not apply "
                + "others: apply#vendor/tool.yaml (site.yaml:4) sets allow_apply: false\n");
        assertThat(dir.resolve("first")).doesNotExist();
        assertThat(dir.resolve("tool")).doesNotExist();
        assertThat(apply(write("trusted.yaml", "resources: [{apply: [vendor/tool.yaml]}]\n")).exit()).isZero();
        assertThat(dir.resolve("tool")).exists();
    }

    @Test
    void dataComesFromTheChildThenItsHierarchyThenTheApplyThenTheCommandLine() throws Exception {
        write("lib/app.yaml", """
                data: {a: child, b: child, c: child, d: child, nested: {x: child, y: child}}
                hierarchy: {order: ["os:${ facts.os.family }"]}
                overrides:
                  os:debian: {b: hierarchy, c: hierarchy, d: hierarchy}
                resources:
                  - file: [{ROOT/app: {content: "${ data.a } ${ data.b } ${ data.c } ${ data.d } ${ data.nested.x } ${ data.nested.y }"}}]
                """);
        Path site = write("site.yaml", """
                data: {c: parent}
                resources:
                  - apply:
                      - lib/app.yaml: {data: {c: resource, d: resource, nested: {y: resource}}}
                """);
        Cli run = apply(site, "--fact", "os.family=debian", "--data", "d=external");
        assertThat(run.err()).isEmpty();
        assertThat(dir.resolve("app")).hasContent("child hierarchy resource external child resource");
    }

    @Test
    void nothingOfTheChildLeaksToResourcesDeclaredAfterIt() throws Exception {
        Files.createDirectories(dir.resolve("lib"));
        Files.writeString(dir.resolve("lib/banner"), "child banner");
        Files.writeString(dir.resolve("banner"), "parent banner");
        write("lib/child.yaml", """
                data: {who: child}
                resources:
                  - file:
                      - ROOT/child-data: {content: "${ data.who }"}
                      - ROOT/child-source: {source: banner}
                      - ROOT/child-file: {content: "${ file('banner') }"}
                """);
        Path site = write("site.yaml", """
                data: {who: parent}
                resources:
                  - apply: [{lib/child.yaml: {noop: false, data: {extra: 1}}}]
                  - file:
                      - ROOT/after-data: {content: "${ data.who } ${ lookup('data.extra', 'none') }"}
                      - ROOT/after-source: {source: banner}
                      - ROOT/after-file: {content: "${ file('banner') }"}
                  - apply: [{lib/child2.yaml: {noop: true}}]
                  - file: [{ROOT/after-noop: {content: x}}]
                """);
        write("lib/child2.yaml", "resources: [{file: [{ROOT/child2: {content: x}}]}]\n");
        Cli run = apply(site);
        assertThat(run.err()).isEmpty();
        assertThat(dir.resolve("child-data")).hasContent("child");
        assertThat(dir.resolve("child-source")).hasContent("child banner");
        assertThat(dir.resolve("child-file")).hasContent("child banner");
        assertThat(dir.resolve("after-data")).hasContent("parent none");
        assertThat(dir.resolve("after-source")).hasContent("parent banner");
        assertThat(dir.resolve("after-file")).hasContent("parent banner");
        assertThat(dir.resolve("child2")).doesNotExist();
        assertThat(dir.resolve("after-noop")).as("the child's noop stays in the child").exists();
    }

    @Test
    void relativePathsResolveAgainstEachChildsDirectoryAtEveryLevel() throws Exception {
        write("a/one.yaml", """
                resources:
                  - file: [{ROOT/one: {source: one.txt}}]
                  - apply: [b/two.yaml]
                """);
        write("a/b/two.yaml", """
                resources:
                  - file: [{ROOT/two: {source: two.txt}}]
                  - exec: [{listed: {command: "cat two.txt", shell: true, query: true}}]
                  - file: [{ROOT/listed: {content: "{{ lookup('exec#listed.stdout') }}"}}]
                """);
        Files.writeString(dir.resolve("a/one.txt"), "one");
        Files.writeString(dir.resolve("a/b/two.txt"), "two");
        Cli run = apply(write("site.yaml", "resources: [{apply: [a/one.yaml]}]\n"));
        assertThat(run.err()).isEmpty();
        assertThat(run.exit()).as(run.out()).isZero();
        assertThat(dir.resolve("one")).hasContent("one");
        assertThat(dir.resolve("two")).hasContent("two");
    }

    @Test
    void idsAreUniqueAcrossManifestsAndRelationsCrossThem() {
        write("lib/dup.yaml", "resources: [{noop: [same]}]\n");
        Path dup = write("dup.yaml", "resources:\n  - noop: [same]\n  - apply: [lib/dup.yaml]\n");
        assertThat(Cli.run("validate", dup).err()).isEqualTo(dir.resolve("lib/dup.yaml") + ":1:21: duplicate resource noop#same "
                + "(first declared at " + dup + ":2:12)\n");

        write("lib/web.yaml", """
                resources:
                  - exec: [{web: {command: "sh -c 'test -e ROOT/base && touch ROOT/web'", creates: ROOT/web, require: exec#base}}]
                """);
        Path site = write("site.yaml", """
                resources:
                  - exec:
                      - base: {command: "touch ROOT/base", creates: ROOT/base}
                      - last: {command: "sh -c 'test -e ROOT/web && touch ROOT/last'", require: exec#web}
                  - apply: [lib/web.yaml]
                """);
        Cli run = apply(site);
        assertThat(run.exit()).as(run.out()).isZero();
        assertThat(dir.resolve("last")).exists();
    }

    @Test
    void subscribingToAnApplyFiresWhenAnyResourceOfItOrItsChildrenChanged() throws Exception {
        write("lib/web.yaml", """
                data: {port: 80}
                resources:
                  - apply: [inner.yaml]
                """);
        write("lib/inner.yaml", """
                data: {port: 80}
                resources:
                  - file: [{ROOT/port: {content: "${ data.port }"}}]
                """);
        Path site = write("site.yaml", """
                resources:
                  - apply: [lib/web.yaml]
                  - exec:
                      - reload: {command: "sh -c 'echo reload >> ROOT/reloads'", refreshonly: true, subscribe: [apply#lib/web.yaml]}
                """);
        apply(site);
        assertThat(Files.readAllLines(dir.resolve("reloads"))).hasSize(1);
        Cli stable = apply(site, "--detailed-exitcodes");
        assertThat(stable.exit()).as(stable.out()).isZero();
        assertThat(Files.readAllLines(dir.resolve("reloads"))).as("nothing changed, no refresh").hasSize(1);
        Files.writeString(dir.resolve("port"), "8080");
        apply(site);
        assertThat(Files.readAllLines(dir.resolve("reloads"))).as("a grandchild changed").hasSize(2);
    }

    @Test
    void anApplyFailsWithTheCountOfFailedChildResourcesAndItsDependentsAreSkipped() {
        write("lib/bad.yaml", """
                resources:
                  - exec: [{a: {command: "false"}}, {b: {command: "false"}}, {c: {command: "true"}}]
                """);
        Path site = write("site.yaml", """
                resources:
                  - apply: [lib/bad.yaml]
                  - file: [{ROOT/after: {content: x, require: apply#lib/bad.yaml}}]
                  - file: [{ROOT/independent: {content: x}}]
                """);
        Cli run = apply(site, "--output", "json");
        assertThat(run.exit()).isEqualTo(1);
        assertThat(entry(run, "apply#lib/bad.yaml")).containsEntry("status", "failed")
                .containsEntry("error", "child manifest had 2 failed resources");
        assertThat(entry(run, "file#" + dir + "/after")).containsEntry("status", "skipped")
                .containsEntry("message", "dependency apply#lib/bad.yaml failed");
        assertThat(entry(run, "exec#c")).containsEntry("status", "changed").containsEntry("manifest", "lib/bad.yaml");
        assertThat(dir.resolve("independent")).exists();
    }

    @Test
    void whatAnApplyRequiresRunsBeforeItsChildrenAndAFailureThereSkipsThem() {
        write("lib/child.yaml", "resources: [{file: [{ROOT/child: {content: x}}]}]\n");
        Path site = write("site.yaml", """
                resources:
                  - exec: [{broken: {command: "false"}}]
                  - apply: [{lib/child.yaml: {require: exec#broken}}]
                """);
        Cli run = apply(site, "--output", "json");
        assertThat(entry(run, "file#" + dir + "/child")).containsEntry("status", "skipped")
                .containsEntry("message", "dependency exec#broken failed");
        assertThat(entry(run, "apply#lib/child.yaml")).containsEntry("status", "skipped");
        assertThat(dir.resolve("child")).doesNotExist();
    }

    @Test
    void urlsAndMissingManifestsAreRejected() {
        Path site = write("site.yaml", """
                resources:
                  - apply:
                      - https://example.com/web.yaml
                      - lib/missing.yaml
                """);
        assertThat(Cli.run("validate", site).err()).isEqualTo(
                site + ":3:9: apply#https://example.com/web.yaml: expected a path relative to this manifest, not a URL\n"
                + site + ":4:9: apply#lib/missing.yaml: no manifest at " + dir.resolve("lib/missing.yaml") + "\n");
    }

    @Test
    @SuppressWarnings("unchecked")
    void validateAndGraphWorkOnComposedManifests() {
        write("lib/web.yaml", "resources: [{noop: [inside]}]\n");
        Path site = write("site.yaml", "resources:\n  - apply: [lib/web.yaml]\n  - noop: [{outside: {require: apply#lib/web.yaml}}]\n");
        assertThat(Cli.run("validate", site).out()).isEqualTo(site + ": ok, 3 resources, 2 edges\n");
        assertThat(Cli.run("graph", site).out()).contains("\"noop#inside\" -> \"apply#lib/web.yaml\" [label=\"child\", style=dotted];");
        Map<String, Object> json = Manifests.json(Cli.run("graph", site, "--format", "json").out());
        assertThat((List<Map<String, Object>>) json.get("vertices")).extracting(v -> v.get("manifest"))
                .containsExactly("site.yaml", "lib/web.yaml", "site.yaml");
    }

    @Test
    void errorsInAChildManifestNameTheChildsFile() {
        write("lib/web.yaml", "resources:\n  - file: [{ROOT/x: {mdoe: \"0644\"}}]\n");
        Path site = write("site.yaml", "resources: [{apply: [{lib/web.yaml: {noop: maybe}}]}]\n");
        assertThat(Cli.run("validate", site).err()).isEqualTo(site + ":1:44: apply#lib/web.yaml: noop: expected true or false, "
                + "got the string 'maybe'\n");
        Path ok = write("ok.yaml", "resources: [{apply: [lib/web.yaml]}]\n");
        assertThat(Cli.run("validate", ok).err()).startsWith(dir.resolve("lib/web.yaml") + ":2:")
                .endsWith(": file#" + dir + "/x: unknown property 'mdoe' (did you mean 'mode'?)\n");
    }
}
