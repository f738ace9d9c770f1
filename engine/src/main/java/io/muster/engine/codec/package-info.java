/**
 * A compiled graph as the fleet stores it: {@link io.muster.engine.codec.GraphCodec} writes a
 * {@link io.muster.engine.graph.Graph} as a {@code muster.graph.Graph} message (module proto) in canonical bytes and
 * reads one back into a graph that runs with no manifest file, checking all of it as it reads;
 * {@link io.muster.engine.codec.PlainCodec} does the same for plain values ({@code muster.value.Value}).
 *
 * <p>May import {@code graph}, {@code resource}, {@code template}, {@code manifest} (marks), {@code health},
 * {@code util} and the generated messages of {@code io.muster.proto}; never {@code compile} or {@code run}, and
 * never etcd: where the bytes are stored is the agent's and the coordinator's business.
 */
package io.muster.engine.codec;
