/**
 * The compiled-graph cache of one-shot runs ({@code apply}, {@code plan}, {@code check}):
 * {@link io.muster.engine.cache.GraphCache} keeps the graph a manifest compiled to under the state prefix, encoded as
 * the agent receives it ({@link io.muster.engine.codec.GraphCodec}), with everything the compilation read: the bytes
 * of its manifests and of the other files it read or looked for, the facts and environment variables read and their
 * values, the external data, the kinds and the muster build. The next run whose inputs are all the same decodes that
 * graph instead of parsing and compiling; any difference, or an entry that does not read back whole, means a compile.
 *
 * <p>May import {@code compile}, {@code codec}, {@code graph}, {@code manifest}, {@code util}; never {@code run}.
 */
package io.muster.engine.cache;
