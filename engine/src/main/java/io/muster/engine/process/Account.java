package io.muster.engine.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A user's passwd entry, or a group's id, read through {@code getent} so that every name service the
 * host uses (files, LDAP, sssd) is asked, and numeric ids work too. Read when the command runs, not when
 * compiling: an earlier resource may create the user.
 */
record Account(String name, long uid, long gid, String home, String shell) {
    static Account user(String user) throws IOException, InterruptedException {
        String[] f = entry("passwd", user, "user").split(":", -1);
        if (f.length < 7) throw new IOException("user '" + user + "': unexpected passwd entry");
        return new Account(f[0], Long.parseLong(f[2]), Long.parseLong(f[3]), f[5], f[6].isEmpty() ? "/bin/sh" : f[6]);
    }

    static long groupId(String group) throws IOException, InterruptedException {
        return Long.parseLong(entry("group", group, "group").split(":", -1)[2]);
    }

    /** A login-like environment: HOME, USER, LOGNAME, SHELL from the entry, and a standard PATH. */
    Map<String, String> environment() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("HOME", home);
        env.put("USER", name);
        env.put("LOGNAME", name);
        env.put("SHELL", shell);
        env.put("PATH", ProcessRunner.LOGIN_PATH);
        return env;
    }

    private static String entry(String database, String key, String what) throws IOException, InterruptedException {
        Process getent = new ProcessBuilder("getent", database, "--", key).redirectErrorStream(true).start();
        String out = new String(getent.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        int exit = getent.waitFor();
        if (exit == 2 || (exit == 0 && out.isEmpty())) throw new IOException(what + " '" + key + "' does not exist on this host");
        if (exit != 0) throw new IOException("cannot look up " + what + " '" + key + "': getent " + database + " exited with " + exit + (out.isEmpty() ? "" : ": " + out));
        int nl = out.indexOf('\n');
        return nl < 0 ? out : out.substring(0, nl);
    }
}
