package io.muster.engine.format.ccm;

import io.muster.engine.util.Maps;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import io.muster.engine.util.FileReads;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * CCM's {@code scaffold}: the template directory {@code source} rendered into the directory named, muster's
 * {@code scaffold} kind. The templates are rendered when the manifest compiles, with the {@code jet} engine's
 * delimiters ({@code [[ ]]}, the default) or {@code go}'s ({@code {{ }}}), or {@code left_delimiter}/
 * {@code right_delimiter}: the jet engine's are Jet templates (if, range, assignments: {@code JetTemplate}), the go
 * engine's tags each hold one CCM expression ({@link ScaffoldTemplate}). {@code data} replaces the
 * manifest's data; {@code skip_empty} leaves out files that render empty; {@code purge} and {@code post} as in CCM.
 */
final class ScaffoldKind implements CcmKind {
    private final Map<String, Object> manifestData;
    private final Path manifestDirectory;
    /** Where the templates read (and the directories listed) are noted: the compiled graph depends on them. */
    private final FileReads reads;

    ScaffoldKind(Map<String, Object> manifestData, Path manifestDirectory, FileReads reads) {
        this.reads = reads;
        this.manifestData = manifestData;
        this.manifestDirectory = manifestDirectory;
    }

    @Override
    public String name() {
        return "scaffold";
    }

    @Override
    public Set<String> properties() {
        return Set.of("source", "engine", "skip_empty", "left_delimiter", "right_delimiter", "purge", "data", "post");
    }

    @Override
    public Translated translate(CcmResource r) {
        Translated out = Translated.of("scaffold", r);
        CommonProperties.provider(r, Set.of("choria"));
        String ensure = Ensure.required(r, Set.of("present", "absent"));
        if (!CcmPaths.absolute(r.name())) r.problem("name must be an absolute path");
        else if (!CcmPaths.canonical(r.name())) r.problem("name must be a canonical path");
        String source = r.string("source");
        if (source.isEmpty()) r.problem(r.markOf("source"), "source cannot be empty");
        String engine = r.has("engine") ? r.string("engine") : "jet";
        if (!engine.equals("go") && !engine.equals("jet")) r.problem(r.markOf("engine"), "engine must be one of \"go\" or \"jet\"");
        Map<String, String> post = post(r);
        if (r.invalid()) return out;
        Map<String, Object> data = r.value("data") instanceof Map<?, ?> own && !own.isEmpty() ? Maps.cast(own) : manifestData;
        boolean go = engine.equals("go");
        String left = r.has("left_delimiter") ? r.string("left_delimiter") : go ? "{{" : "[[";
        String right = r.has("right_delimiter") ? r.string("right_delimiter") : go ? "}}" : "]]";
        ScaffoldTemplate goTemplate = new ScaffoldTemplate(left, right);
        UnaryOperator<String> template = go ? text -> goTemplate.render(text, expression -> r.evaluate(expression, data))
                : text -> r.jet(text, left, right, data);
        Map<String, String> files = render(r, manifestDirectory.resolve(source).normalize(), template, r.bool("skip_empty"));
        out.put("path", r.name(), r.mark()).put("ensure", ensure, r.markOf("ensure")).put("files", files, r.markOf("source"));
        if (r.bool("purge")) out.put("purge", true, r.markOf("purge"));
        if (!post.isEmpty()) out.put("post", post, r.markOf("post"));
        return out;
    }

    /** The {@code post} list of {@code {glob: command}} maps, as one map in their order. */
    private static Map<String, String> post(CcmResource r) {
        Object raw = r.entry("post").map(e -> e.value().plain()).orElse(List.of());
        Map<String, String> out = new LinkedHashMap<>();
        if (!(raw instanceof List<?> list)) {
            r.problem(r.markOf("post"), "post: expected a list of {glob: command} maps");
            return out;
        }
        for (Object item : list) {
            if (!(item instanceof Map<?, ?> map)) {
                r.problem(r.markOf("post"), "post: expected a list of {glob: command} maps");
                continue;
            }
            map.forEach((k, v) -> {
                if (String.valueOf(k).isEmpty()) r.problem(r.markOf("post"), "post keys cannot be empty");
                else if (v == null || String.valueOf(v).isEmpty()) r.problem(r.markOf("post"), "post value for key \"" + k + "\" cannot be empty");
                out.put(String.valueOf(k), String.valueOf(v));
            });
        }
        return out;
    }

    private Map<String, String> render(CcmResource r, Path source, UnaryOperator<String> template, boolean skipEmpty) {
        Map<String, String> files = new LinkedHashMap<>();
        reads.read(source.toAbsolutePath()); // a directory's fingerprint is its listing: a template added or removed shows
        if (!Files.isDirectory(source)) {
            r.problem(r.markOf("source"), "source directory " + source + " does not exist");
            return files;
        }
        try (Stream<Path> walk = Files.walk(source)) {
            List<Path> found = walk.sorted().toList();
            for (Path directory : found) if (Files.isDirectory(directory)) reads.read(directory.toAbsolutePath());
            for (Path file : found.stream().filter(Files::isRegularFile).toList()) {
                reads.read(file.toAbsolutePath());
                String relative = source.relativize(file).toString();
                try {
                    String rendered = template.apply(Files.readString(file, StandardCharsets.UTF_8));
                    if (!(skipEmpty && rendered.isBlank())) files.put(relative, rendered);
                } catch (IllegalArgumentException e) {
                    r.problem(r.markOf("source"), "template " + relative + ": " + e.getMessage());
                }
            }
        } catch (IOException e) {
            r.problem(r.markOf("source"), "cannot read the templates in " + source + ": " + e.getMessage());
        }
        return files;
    }
}
