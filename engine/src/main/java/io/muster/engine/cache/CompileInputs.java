package io.muster.engine.cache;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What one compilation read from this host, besides its command line: its manifests and the other files it read or
 * looked for, by the {@link Fingerprint} of their content, and the facts and environment variables it read.
 *
 * @param manifests the manifests compiled, absolute, the given one first
 * @param files absolute path to the fingerprint of the file's content, null when it was not a readable file
 */
record CompileInputs(List<Path> manifests, Map<String, String> files, RecordingMap.Reads facts, RecordingMap.Reads env) {

    CompileInputs {
        manifests = List.copyOf(manifests);
        files = new TreeMap<>(files);
    }

    /** The inputs of a compilation that read {@code manifests} and {@code others}, hashed now. */
    static CompileInputs hash(List<Path> manifests, List<Path> others, RecordingMap.Reads facts, RecordingMap.Reads env) {
        Map<String, String> files = new TreeMap<>();
        for (Path file : manifests) files.put(file.toString(), Fingerprint.of(file));
        // a file looked for and not found is kept too, as null (computeIfAbsent would drop it): its appearing is a change
        for (Path file : others) if (!files.containsKey(file.toString())) files.put(file.toString(), Fingerprint.of(file));
        return new CompileInputs(manifests, files, facts, env);
    }

    /** What differs now, in words (a file's path, {@code facts.os}, {@code env.HOME}), or null when nothing does. */
    String changed(Map<String, ?> factsNow, Map<String, ?> envNow) {
        for (Map.Entry<String, String> file : files.entrySet()) {
            if (!Objects.equals(Fingerprint.of(Path.of(file.getKey())), file.getValue())) return file.getKey();
        }
        String fact = facts.changed("facts", factsNow);
        return fact != null ? fact : env.changed("env", envNow);
    }

    Map<String, Object> toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("manifests", manifests.stream().map(Path::toString).toList());
        json.put("files", files);
        json.put("facts", reads(facts));
        json.put("env", reads(env));
        return json;
    }

    /** @throws ClassCastException or NullPointerException when {@code json} is not what {@link #toJson} wrote */
    static CompileInputs fromJson(Object json) {
        Map<?, ?> map = (Map<?, ?>) json;
        List<Path> manifests = new ArrayList<>();
        for (Object name : (List<?>) map.get("manifests")) manifests.add(Path.of((String) name));
        return new CompileInputs(manifests, strings(map.get("files")), reads(map.get("facts")), reads(map.get("env")));
    }

    private static Map<String, Object> reads(RecordingMap.Reads reads) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("values", reads.values());
        json.put("present", reads.present());
        json.put("all", reads.all());
        return json;
    }

    private static RecordingMap.Reads reads(Object json) {
        Map<?, ?> map = (Map<?, ?>) json;
        Map<String, Boolean> present = new TreeMap<>();
        ((Map<?, ?>) map.get("present")).forEach((name, there) -> present.put((String) name, (Boolean) Objects.requireNonNull(there)));
        return new RecordingMap.Reads(strings(map.get("values")), present, (String) map.get("all"));
    }

    /** A map of strings to strings or nulls. */
    private static Map<String, String> strings(Object json) {
        Map<String, String> out = new TreeMap<>();
        ((Map<?, ?>) json).forEach((name, value) -> out.put((String) name, (String) value));
        return out;
    }
}
