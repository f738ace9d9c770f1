package io.muster.engine.exports;

/**
 * An export of another host that a {@code collect} block matched: applied here under {@code id}, or rejected.
 *
 * @param name the export's name, as its exporter wrote it
 * @param id the vertex id it runs under here: {@code kind#name@exporter}
 * @param rejected why it is not applied (the trust rule it breaks, the conflict, with where the block is written); null when applied
 */
public record Collected(String kind, String exporter, String name, String id, String rejected) {

    /** The id a collected resource runs under: its kind and name as exported, then {@code @} and its exporter. */
    public static String id(String kind, String name, String exporter) {
        return kind + "#" + name + "@" + exporter;
    }

    public boolean applied() {
        return rejected == null;
    }
}
