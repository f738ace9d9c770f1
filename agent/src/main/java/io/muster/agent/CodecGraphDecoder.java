package io.muster.agent;

import com.google.protobuf.InvalidProtocolBufferException;
import io.muster.engine.codec.GraphCodec;
import io.muster.engine.codec.InvalidGraphException;
import io.muster.engine.graph.Graph;
import io.muster.engine.resource.Kinds;
import io.muster.proto.graph.BundleFile;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;

/** Graphs as the coordinator encodes them ({@link GraphCodec}), with the resource kinds installed on this host. */
public final class CodecGraphDecoder implements GraphDecoder {
    private final Kinds kinds;

    public CodecGraphDecoder(Kinds kinds) {
        this.kinds = kinds;
    }

    @Override
    public BundleLayout bundle(byte[] graph) throws UnusableGraphException {
        io.muster.proto.graph.Graph message;
        try {
            message = io.muster.proto.graph.Graph.parseFrom(graph);
        } catch (InvalidProtocolBufferException e) {
            throw new UnusableGraphException("not a graph message (" + graph.length + " bytes): " + e.getMessage(), e);
        }
        Map<String, String> files = new LinkedHashMap<>();
        for (BundleFile file : message.getBundleFilesList()) files.put(file.getPath(), file.getSha256());
        return new BundleLayout(files, new LinkedHashSet<>(message.getDirectoriesList()));
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
