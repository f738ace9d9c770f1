package io.muster.coordinator.etcd;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import io.etcd.jetcd.KeyValue;
import io.muster.agent.etcd.Keys;

/** Reads the protobuf message a fleet key holds; what is not one is a {@link CorruptKeyException} naming the key. */
public final class Stored {
    private Stored() {}

    public static <T extends Message> T parse(Parser<T> parser, KeyValue kv) {
        try {
            return parser.parseFrom(kv.getValue().getBytes());
        } catch (InvalidProtocolBufferException e) {
            throw new CorruptKeyException(Keys.text(kv.getKey()) + ": not what muster stores there (" + e.getMessage() + ")");
        }
    }

    /** A key holds what muster never wrote there: a one-line error, never a stack trace. */
    public static final class CorruptKeyException extends RuntimeException {
        public CorruptKeyException(String message) {
            super(message);
        }
    }
}
