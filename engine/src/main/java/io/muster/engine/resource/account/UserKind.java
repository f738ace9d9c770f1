package io.muster.engine.resource.account;

import io.muster.engine.resource.InvalidResourceException;
import io.muster.engine.resource.Property;
import io.muster.engine.resource.Resource;
import io.muster.engine.resource.ResourceKind;
import io.muster.engine.resource.Schema;
import io.muster.engine.resource.Type;
import io.muster.engine.resource.TypedParams;
import java.util.Set;

/**
 * {@code user}: a local user; each property given is converged, the others left as they are. {@code password}
 * is a crypt hash ({@code $6$…}, as {@code mkpasswd} or {@code openssl passwd -6} make), never shown.
 */
public final class UserKind implements ResourceKind {
    private static final Schema SCHEMA = Schema.of("name", Set.of("uid", "gid", "home"),
            Property.required("name", Type.STRING).checkedBy(raw -> Ids.nameProblem(String.valueOf(raw))),
            Property.oneOf("ensure", "present", "absent"),
            Property.optional("uid", Type.STRING).checkedBy(Ids::idProblem),
            Property.optional("gid", Type.STRING).checkedBy(Ids::nameOrIdProblem),
            Property.optional("groups", Type.STRING_LIST).checkedBy(Ids::namesProblem),
            Property.optional("home", Type.PATH),
            Property.optional("shell", Type.PATH),
            Property.optional("comment", Type.STRING).checkedBy(UserKind::commentProblem),
            Property.optional("system", Type.BOOLEAN),
            Property.optional("managehome", Type.BOOLEAN),
            Property.optional("password", Type.STRING).checkedBy(UserKind::passwordProblem));

    @Override
    public String name() {
        return "user";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public boolean runsCommands() {
        return true;
    }

    @Override
    public Resource create(TypedParams p) throws InvalidResourceException {
        UserResource.Wanted wanted = new UserResource.Wanted(
                p.optionalString("uid").map(Long::parseLong).orElse(null),
                p.optionalString("gid").orElse(null),
                p.strings("groups", null),
                p.optionalAbsolutePath("home").map(Object::toString).orElse(null),
                p.optionalAbsolutePath("shell").map(Object::toString).orElse(null),
                p.optionalString("comment").orElse(null),
                p.optionalString("password").orElse(null));
        return new UserResource(p.string("name"), p.string("ensure", "present").equals("present"), wanted,
                p.bool("system", false), p.bool("managehome", false));
    }

    /** The passwd file separates fields with ':' and entries with newlines. */
    private static String commentProblem(Object raw) {
        String text = String.valueOf(raw);
        return text.contains(":") || text.contains("\n") ? "a comment cannot contain ':' or a newline" : null;
    }

    /**
     * A crypt hash, or '!'/'*' (locked, no password): a clear-text password would be stored as a hash that
     * matches nothing. The value itself is never quoted.
     */
    private static String passwordProblem(Object raw) {
        String text = String.valueOf(raw);
        if (text.matches("[!*]?\\$[0-9a-z]+\\$[./0-9A-Za-z$=,]+") || text.matches("[!*]+")) return null;
        return "expected a crypt hash such as $6$salt$hash (from mkpasswd or openssl passwd -6), or '!' for a locked account"
                + " (the value is not shown: it is sensitive)";
    }
}
