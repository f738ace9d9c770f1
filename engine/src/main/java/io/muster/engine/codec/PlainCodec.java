package io.muster.engine.codec;

import io.muster.engine.util.Plain;
import io.muster.proto.value.Entry;
import io.muster.proto.value.Value;
import io.muster.proto.value.ValueList;
import io.muster.proto.value.ValueMap;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@link Plain} values to and from {@code muster.value.Value}: whole numbers stay whole numbers, maps keep their
 * order, so a value read back is equal to the one written and writes the same bytes again.
 */
public final class PlainCodec {
    private PlainCodec() {}

    public static ValueMap encodeMap(Map<String, ?> map) {
        ValueMap.Builder out = ValueMap.newBuilder();
        map.forEach((key, value) -> out.addEntries(Entry.newBuilder().setKey(key).setValue(encode(value))));
        return out.build();
    }

    public static Value encode(Object value) {
        Value.Builder out = Value.newBuilder();
        switch (Plain.of(value)) {
            case null -> out.setNull(true);
            case Boolean b -> out.setBoolean(b);
            case Long l -> out.setInteger(l);
            case BigInteger big -> out.setBigInteger(big.toString());
            case Double d -> out.setDecimal(d);
            case String s -> out.setText(s);
            case List<?> items -> {
                ValueList.Builder list = ValueList.newBuilder();
                for (Object item : items) list.addItems(encode(item));
                out.setList(list);
            }
            case Map<?, ?> map -> {
                @SuppressWarnings("unchecked") // Plain maps have string keys
                Map<String, ?> plain = (Map<String, ?>) map;
                out.setMap(encodeMap(plain));
            }
            default -> throw new IllegalStateException("not a plain value: " + value.getClass().getName());
        }
        return out.build();
    }

    /**
     * The map {@code message} holds.
     *
     * @param where what it is, for errors ({@code exec#x: params})
     * @throws InvalidGraphException naming {@code where} and what is wrong: a value of no kind, a key twice
     */
    public static Map<String, Object> decodeMap(ValueMap message, String where) throws InvalidGraphException {
        return decodeMap(message, () -> where);
    }

    /**
     * {@link #decodeMap(ValueMap, String)} with what it is said only when something is wrong: a graph's values are
     * decoded by the ten thousand, and naming each on the way cost more than decoding it.
     */
    static Map<String, Object> decodeMap(ValueMap message, Supplier<String> where) throws InvalidGraphException {
        Map<String, Object> out = LinkedHashMap.newLinkedHashMap(message.getEntriesCount());
        for (Entry entry : message.getEntriesList()) {
            String key = entry.getKey();
            if (out.containsKey(key)) throw new InvalidGraphException(where.get() + ": the key '" + key + "' twice");
            if (!entry.hasValue()) throw new InvalidGraphException(where.get() + "." + key + ": no value");
            out.put(key, decode(entry.getValue(), () -> where.get() + "." + key));
        }
        return Collections.unmodifiableMap(out);
    }

    private static Object decode(Value value, Supplier<String> where) throws InvalidGraphException {
        return switch (value.getKindCase()) {
            case NULL -> null;
            case BOOLEAN -> value.getBoolean();
            case INTEGER -> value.getInteger();
            case DECIMAL -> value.getDecimal();
            case TEXT -> value.getText();
            case BIG_INTEGER -> bigInteger(value.getBigInteger(), where);
            case LIST -> {
                List<Object> items = new ArrayList<>(value.getList().getItemsCount());
                for (int i = 0; i < value.getList().getItemsCount(); i++) {
                    int at = i;
                    items.add(decode(value.getList().getItems(i), () -> where.get() + "[" + at + "]"));
                }
                yield Collections.unmodifiableList(items);
            }
            case MAP -> decodeMap(value.getMap(), where);
            case KIND_NOT_SET -> throw new InvalidGraphException(where.get() + ": a value of no kind");
        };
    }

    private static Object bigInteger(String text, Supplier<String> where) throws InvalidGraphException {
        try {
            return Plain.of(new BigInteger(text));
        } catch (NumberFormatException e) {
            throw new InvalidGraphException(where.get() + ": '" + text + "' is not a whole number");
        }
    }
}
