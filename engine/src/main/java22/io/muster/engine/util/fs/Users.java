package io.muster.engine.util.fs;

import java.io.IOException;

/** User and group names and ids, as the system's user database (NSS) has them. */
public final class Users {
    private Users() {}

    /** muster's own (effective) uid, read once: it never changes while muster runs, and checks ask for it per directory. */
    static final int MUSTER = Libc.geteuid();

    /** Whether {@code uid} is root or muster's own user, whom muster trusts with what it manages. */
    public static boolean privileged(int uid) {
        return uid == 0 || uid == MUSTER;
    }

    /** The uid of a user name (or a numeric uid); an error names the property. */
    public static int uid(String name) throws IOException {
        return id(name, false, "owner: no such user '" + name + "'");
    }

    public static int gid(String name) throws IOException {
        return id(name, true, "group: no such group '" + name + "'");
    }

    private static int id(String name, boolean group, String unknown) throws IOException {
        int id = Libc.id(name, group);
        if (id != -1) return id;
        if (name.matches("[0-9]{1,9}")) return Integer.parseInt(name);
        throw new IOException(unknown);
    }

    /** A uid's name, or the number when the user database has none. */
    public static String userName(int uid) {
        String name = Libc.name(uid, false);
        return name != null ? name : String.valueOf(uid);
    }

    public static String groupName(int gid) {
        String name = Libc.name(gid, true);
        return name != null ? name : String.valueOf(gid);
    }
}
