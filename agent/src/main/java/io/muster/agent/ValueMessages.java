package io.muster.agent;

import io.muster.proto.value.Entry;
import io.muster.proto.value.Value;
import io.muster.proto.value.ValueList;
import io.muster.proto.value.ValueMap;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;

/** Plain values (what facts and YAML hold: maps, lists, strings, numbers, booleans, null) as proto Values, entries in order. */
final class ValueMessages {
    private ValueMessages() {}

    static ValueMap map(Map<?, ?> map) {
        ValueMap.Builder out = ValueMap.newBuilder();
        map.forEach((key, value) -> out.addEntries(Entry.newBuilder().setKey(String.valueOf(key)).setValue(value(value))));
        return out.build();
    }

    static Value value(Object value) {
        Value.Builder out = Value.newBuilder();
        switch (value) {
            case null -> out.setNull(true);
            case Boolean b -> out.setBoolean(b);
            case Long l -> out.setInteger(l);
            case Integer i -> out.setInteger(i);
            case Short s -> out.setInteger(s);
            case Byte b -> out.setInteger(b);
            case BigInteger big when big.bitLength() < 64 -> out.setInteger(big.longValueExact());
            case BigInteger big -> out.setBigInteger(big.toString());
            case Double d -> out.setDecimal(d);
            case Float f -> out.setDecimal(f);
            case Map<?, ?> m -> out.setMap(map(m));
            case List<?> list -> {
                ValueList.Builder items = ValueList.newBuilder();
                list.forEach(item -> items.addItems(value(item)));
                out.setList(items);
            }
            default -> out.setText(value.toString());
        }
        return out.build();
    }
}
