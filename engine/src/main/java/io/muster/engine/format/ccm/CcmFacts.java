package io.muster.engine.format.ccm;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The facts as a CCM manifest reads them: muster's, with CCM's {@code host.info} (gopsutil's host information:
 * {@code hostname}, {@code os}, {@code platform}, {@code platformFamily}, {@code platformVersion},
 * {@code kernelVersion}, {@code kernelArch}) made from them, so that CCM's hierarchies
 * ({@code os:{{ lookup('facts.host.info.platformFamily') }}}) pick the level they pick under CCM. What a caller
 * gave under {@code host.info} ({@code --fact host.info.platformFamily=rhel}) wins.
 */
final class CcmFacts {
    private static final Map<String, String> KERNEL_ARCH = Map.of("amd64", "x86_64", "arm64", "aarch64", "386", "i686");

    private CcmFacts() {}

    static Map<String, Object> of(Map<String, ?> facts) {
        Map<String, Object> info = new LinkedHashMap<>();
        put(info, "hostname", facts.get("hostname"));
        info.put("os", System.getProperty("os.name", "linux").toLowerCase(Locale.ROOT));
        if (facts.get("os") instanceof Map<?, ?> os) {
            put(info, "platform", os.get("name"));
            put(info, "platformFamily", os.get("family"));
            put(info, "platformVersion", os.get("release"));
            put(info, "kernelVersion", os.get("kernel"));
        }
        if (facts.get("arch") instanceof String arch) info.put("kernelArch", KERNEL_ARCH.getOrDefault(arch, arch));
        Map<String, Object> host = new LinkedHashMap<>();
        if (facts.get("host") instanceof Map<?, ?> given) given.forEach((k, v) -> host.put(String.valueOf(k), v));
        if (host.get("info") instanceof Map<?, ?> given) given.forEach((k, v) -> info.put(String.valueOf(k), v));
        host.put("info", info);
        Map<String, Object> out = new LinkedHashMap<>(facts);
        out.put("host", host);
        return out;
    }

    private static void put(Map<String, Object> info, String key, Object value) {
        if (value != null) info.put(key, value);
    }
}
