package io.muster.engine.resource;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * A resource's parameters as its kind reads them: each read names a property and the Java type it expects,
 * and both are checked against the kind's {@link Schema}. A property the schema does not declare, one of
 * another type, or a one-argument read of a property that may be unset is a bug in the kind, not in the
 * manifest: it throws {@link IllegalArgumentException} naming the kind and the property on the first read,
 * whatever the manifest says (see {@code KindSchemaTest}).
 *
 * <p>A property that is always set (required, or the kind's name property) is read with one argument; any
 * other with a fallback or as an {@link Optional}, so every unset value is visible where it is read.
 */
public final class TypedParams {
    private static final Set<Type> TEXT = Set.of(Type.STRING, Type.PATH);

    private final String kind;
    private final Schema schema;
    private final Params params;

    public TypedParams(String kind, Schema schema, Params params) {
        this.kind = kind;
        this.schema = schema;
        this.params = params;
    }

    /** The resource's name ({@code noop#name}). */
    public String name() {
        return params.name();
    }

    /** The manifest's directory, against which relative paths resolve. */
    public Path directory() {
        return params.directory();
    }

    /** A string or path that is always set. */
    public String string(String property) {
        return (String) always(property, TEXT);
    }

    public String string(String property, String fallback) {
        return optionalString(property).orElse(fallback);
    }

    public Optional<String> optionalString(String property) {
        return optional(property, TEXT).map(String.class::cast);
    }

    public boolean bool(String property, boolean fallback) {
        return optional(property, Set.of(Type.BOOLEAN)).map(Boolean.class::cast).orElse(fallback);
    }

    public double number(String property, double fallback) {
        return optional(property, Set.of(Type.NUMBER)).map(Double.class::cast).orElse(fallback);
    }

    @SuppressWarnings("unchecked") // Type.STRING_LIST makes a List<String>
    public List<String> strings(String property, List<String> fallback) {
        return optional(property, Set.of(Type.STRING_LIST)).map(v -> (List<String>) v).orElse(fallback);
    }

    @SuppressWarnings("unchecked") // Type.INTEGER_LIST makes a List<Long>
    public List<Long> integers(String property, List<Long> fallback) {
        return optional(property, Set.of(Type.INTEGER_LIST)).map(v -> (List<Long>) v).orElse(fallback);
    }

    @SuppressWarnings("unchecked") // Type.STRING_MAP makes a Map<String, String>
    public Map<String, String> stringMap(String property, Map<String, String> fallback) {
        return optional(property, Set.of(Type.STRING_MAP)).map(v -> (Map<String, String>) v).orElse(fallback);
    }

    /** A value of {@link Type#ANY}, as YAML gave it (its kind checked its shape). */
    public Optional<Object> optionalAny(String property) {
        return optional(property, Set.of(Type.ANY));
    }

    /**
     * A {@link Property#oneOf} property as the constant of {@code fallback}'s enum with the same name in upper
     * case ({@code directory} is {@code DIRECTORY} in every locale); each allowed value must have one.
     */
    public <E extends Enum<E>> E choice(String property, E fallback) {
        return optionalChoice(property, fallback.getDeclaringClass()).orElse(fallback);
    }

    public <E extends Enum<E>> Optional<E> optionalChoice(String property, Class<E> type) {
        Optional<Object> value = optional(property, Set.of(Type.STRING));
        List<String> allowed = schema.property(property).allowed();
        if (allowed.isEmpty()) throw misread(property, "is not a oneOf property; read it as a string");
        for (String each : allowed) constant(property, type, each);
        return value.map(v -> constant(property, type, (String) v));
    }

    /** An absolute path, normalized (see {@link LexicalPath}), that is always set. */
    public Path absolutePath(String property) throws InvalidResourceException {
        return absolute(property, string(property));
    }

    public Optional<Path> optionalAbsolutePath(String property) throws InvalidResourceException {
        Optional<String> value = optionalString(property);
        return value.isEmpty() ? Optional.empty() : Optional.of(absolute(property, value.get()));
    }

    private static Path absolute(String property, String value) throws InvalidResourceException {
        String problem = LexicalPath.problem(value);
        if (problem != null) throw new InvalidResourceException(property, problem);
        Path path = Path.of(value);
        if (!path.isAbsolute()) throw new InvalidResourceException(property, "expected an absolute path, got '" + path + "'");
        return path.normalize();
    }

    private <E extends Enum<E>> E constant(String property, Class<E> type, String value) {
        try {
            return Enum.valueOf(type, value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw misread(property, "allows '" + value + "', which " + type.getSimpleName() + " has no constant for");
        }
    }

    /** The value of a property the compiler always sets; unset only while a late one is still unrendered. */
    private Object always(String property, Set<Type> types) {
        Property declared = declared(property, types);
        if (!declared.required() && !property.equals(schema.nameProperty())) {
            throw misread(property, "may be unset; read it with a fallback or as an Optional");
        }
        Object value = params.values().get(property);
        if (value == null) throw new IllegalStateException(kind + ": property '" + property + "' is not set yet");
        return value;
    }

    private Optional<Object> optional(String property, Set<Type> types) {
        declared(property, types);
        return Optional.ofNullable(params.values().get(property));
    }

    private Property declared(String property, Set<Type> types) {
        Property declared = schema.property(property);
        if (declared == null) throw misread(property, "is not in the schema");
        if (!types.contains(declared.type())) {
            throw misread(property, "is " + declared.type().expected() + " in the schema, not read as " + describe(types));
        }
        return declared;
    }

    private static String describe(Set<Type> types) {
        return types.stream().map(Type::expected).sorted().reduce((a, b) -> a + " or " + b).orElseThrow();
    }

    private IllegalArgumentException misread(String property, String why) {
        return new IllegalArgumentException(kind + ": property '" + property + "' " + why);
    }
}
