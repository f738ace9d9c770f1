/**
 * Exported resources and their collection across hosts.
 *
 * <h2>Exporting</h2>
 * A resource with {@code meta.export} runs on its exporter as far as rendering: its conditions are evaluated, its
 * late properties rendered with the values produced there (facts, data, run-time lookups), and the resource
 * validated; then, instead of being applied, it is published through the {@link io.muster.engine.world.World}
 * under its kind and name (over etcd: {@code exported/<kind>/<host>/<name>}, bound to the agent's lease). It is
 * withdrawn when a graph swap leaves it out, and goes with the lease when the host does.
 *
 * <h2>The content of an export</h2>
 * {@link io.muster.engine.exports.ExportedResource}: base64 (RFC 4648, padded) of the protobuf message {@code
 * muster.graph.ExportedResource} ({@code proto/src/main/proto/graph.proto}), version 1: kind, name, every
 * parameter in the graph's value encoding ({@link io.muster.engine.codec.PlainCodec}: whole numbers stay whole,
 * maps keep their order), tags, and {@code to} (host patterns of who may collect it; none: any host). A collector
 * rejects another version rather than guess at it. Health checks, conditions and metaparams are not exported: the
 * collector's block decides how collected resources run.
 *
 * <h2>Collecting</h2>
 * A manifest's {@code collect:} blocks ({@link io.muster.engine.graph.Collect}) travel with the compiled graph.
 * {@link io.muster.engine.exports.Collector} follows the World's collection of each kind they name and joins the
 * matching exports of other hosts into the running graph through the engine's graph swap;
 * {@link io.muster.engine.exports.CollectedGraph} decides what joins: the exporter matches {@code from}, this host
 * matches the export's {@code to}, the export carries the block's {@code tags} and equals its {@code where}; then
 * the trust rules (a kind that runs commands only when {@code allow.kinds} names it, never an aggregate, a path
 * resource only under {@code allow.paths}, no property that reads a file of the host it runs on). A collected
 * resource runs as {@code kind#name@exporter} ({@link io.muster.engine.exports.Collected#id}), so two exporters'
 * resources of one name never share an id; two of them managing the same thing, or one and a resource of this
 * host's own, is a conflict: neither runs.
 *
 * <p>May import {@code graph}, {@code resource}, {@code world}, {@code codec}, {@code compile} (host patterns,
 * automatic edges), {@code template}, {@code util}; the run imports it.
 */
package io.muster.engine.exports;
