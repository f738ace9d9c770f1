package io.muster.agent;

import io.muster.engine.codec.GraphCodec;
import io.muster.engine.codec.InvalidGraphException;
import io.muster.engine.graph.Graph;
import io.muster.engine.resource.Kinds;
import java.nio.file.Path;

/** Graphs as the coordinator encodes them ({@link GraphCodec}), with the resource kinds installed on this host. */
public final class CodecGraphDecoder implements GraphDecoder {
    private final Kinds kinds;

    public CodecGraphDecoder(Kinds kinds) {
        this.kinds = kinds;
    }

    @Override
    public Graph decode(byte[] graph, Path bundleRoot) throws UnusableGraphException {
        try {
            return GraphCodec.decode(graph, bundleRoot, kinds);
        } catch (InvalidGraphException e) {
            throw new UnusableGraphException(e.getMessage(), e);
        }
    }
}
