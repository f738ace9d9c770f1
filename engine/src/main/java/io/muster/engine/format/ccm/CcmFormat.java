package io.muster.engine.format.ccm;

import io.muster.engine.format.ForeignManifest;
import io.muster.engine.format.ManifestFormat;
import io.muster.engine.format.NativeManifest;
import io.muster.engine.graph.EdgeReason;
import io.muster.engine.manifest.ManifestException;
import io.muster.engine.manifest.Mark;
import io.muster.engine.manifest.YNode;
import io.muster.engine.template.TemplateDialect;
import io.muster.engine.util.Suggest;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A Choria CCM manifest (top-level {@code ccm:}), with CCM's semantics: its data resolved by CCM's hiera, its
 * resources validated as CCM's model validates them and run in the order written (an {@link EdgeReason#ORDER} edge
 * from each to the next; with {@code fail_on_error: true} a {@link EdgeReason#REQUIRE} edge, so a failure skips
 * the rest), {@code pre_message} shown first and {@code post_message} last, only when nothing failed (for the
 * manifest given: CCM does not show those of a manifest an {@code apply} includes).
 */
public final class CcmFormat implements ManifestFormat {
    private static final List<String> TOP_LEVEL = List.of("ccm", "data", "hierarchy", "overrides");
    private static final List<String> CCM_KEYS = List.of("resources", "fail_on_error", "pre_message", "post_message", "resources_jet_file");

    @Override
    public String key() {
        return "ccm";
    }

    @Override
    public NativeManifest translate(YNode.Dict top, ForeignManifest given) throws ManifestException {
        Map<String, Object> facts = CcmFacts.of(given.facts());
        Map<String, String> environ = environ(given, top);
        ForeignManifest source = new ForeignManifest(given.file(), given.included(), facts, environ,
                given.aggregateData(), given.externalData(), given.kinds(), given.problems(), given.reads());
        for (YNode.Entry e : top.entries().values()) {
            if (!TOP_LEVEL.contains(e.key())) {
                source.problems().add(e.keyMark(), "unknown top-level key '" + e.key() + "' in a CCM manifest" + Suggest.hint(e.key(), TOP_LEVEL)
                        + "; expected " + String.join(", ", TOP_LEVEL));
            }
        }
        if (!(top.get("ccm") instanceof YNode.Dict ccm)) throw new ManifestException(top.get("ccm").mark(), "ccm: expected a map with resources");
        for (YNode.Entry e : ccm.entries().values()) {
            if (!CCM_KEYS.contains(e.key())) {
                source.problems().add(e.keyMark(), "unknown key 'ccm." + e.key() + "'" + Suggest.hint(e.key(), CCM_KEYS)
                        + "; expected " + String.join(", ", CCM_KEYS));
            }
        }
        Sections.check(top, source.problems());
        Map<String, Object> data = CcmData.resolve(top, source);
        DataValidation.check(data, DataRules.of(source.file()), source.problems());
        CcmTemplates templates = new CcmTemplates(data, source);
        YNode resources = ccm.get("resources");
        YNode.Entry jetFile = ccm.entries().get("resources_jet_file");
        if (jetFile != null) {
            if (resources != null && !(resources instanceof YNode.Scalar empty && empty.value() == null)) {
                throw new ManifestException(jetFile.keyMark(), "jet_file and resources cannot be used together");
            }
            resources = JetResources.read(jetFile, source.file().getParent(), templates, data, source.reads());
        }
        if (resources == null || resources instanceof YNode.Scalar s && s.value() == null || resources instanceof YNode.Seq q && q.items().isEmpty()) {
            throw new ManifestException(ccm.mark(), "manifest must contain resources (ccm.resources)");
        }
        List<CcmKind> kinds = List.of(new FileKind(), new ExecKind(), new PackageKind(), new ServiceKind(), new ArchiveKind(),
                new ScaffoldKind(data, source.file().getParent(), source.reads()), new ApplyKind(data));
        References.Resolved resolved = References.resolve(new ResourceList(kinds, templates, source.problems()).read(resources), source.included());
        List<Translated> translated = new ArrayList<>(resolved.resources());
        if (!source.included()) { // CCM shows the messages of the manifest it applies, not those of its children
            Messages messages = new Messages(source.file(), templates, source.problems());
            messages.pre(ccm.entries().get("pre_message")).ifPresent(translated::addFirst);
            List<String> ids = translated.stream().map(Translated::id).toList();
            messages.post(ccm.entries().get("post_message"), ids).ifPresent(translated::add);
        }
        boolean failOnError = failOnError(ccm.entries().get("fail_on_error"), source);
        return NativeManifest.of(nativeManifest(translated, ccm.mark())).withData(data)
                .inSequence(failOnError ? EdgeReason.REQUIRE : EdgeReason.ORDER).inDialect(TemplateDialect.CCM).withFacts(facts).withEnv(environ).withEdges(resolved.refreshes());
    }

    /** CCM's {@code Environ}: muster's environment with the {@code .env} of the directory muster runs in over it. */
    private static Map<String, String> environ(ForeignManifest given, YNode.Dict top) throws ManifestException {
        try {
            Path dotEnv = Path.of("").toAbsolutePath().resolve(".env");
            given.reads().read(dotEnv); // looked for even when absent: creating it must recompile
            return DotEnv.environ(given.env(), dotEnv);
        } catch (UncheckedIOException e) {
            throw new ManifestException(top.mark(), e.getMessage());
        }
    }

    private static boolean failOnError(YNode.Entry entry, ForeignManifest source) {
        if (entry == null) return false;
        if (entry.value().plain() instanceof Boolean b) return b;
        source.problems().add(entry.value().mark(), "ccm.fail_on_error: expected true or false, got " + entry.value().describe());
        return false;
    }

    /**
     * {@code resources:} with a block of one entry per resource, in order. CCM has no automatic edges or groups: the
     * order written is the whole schedule (an automatic edge against it would be a cycle, a group would reorder it).
     */
    private static YNode.Dict nativeManifest(List<Translated> resources, Mark mark) {
        List<YNode> blocks = new ArrayList<>();
        for (Translated t : resources) {
            t.put("meta", Map.of("autoedge", false, "autogroup", false), t.mark());
            YNode entry = new YNode.Dict(Map.of(t.name(), new YNode.Entry(t.name(), t.mark(), Nodes.dict(t.properties(), t.mark()))), t.mark());
            blocks.add(Nodes.dict(Map.of(t.kind(), Nodes.seq(List.of(entry), t.mark())), t.mark()));
        }
        Map<String, YNode> top = new LinkedHashMap<>();
        top.put("resources", Nodes.seq(blocks, mark));
        return Nodes.dict(top, mark);
    }
}
