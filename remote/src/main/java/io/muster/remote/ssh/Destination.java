package io.muster.remote.ssh;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One host of {@code muster remote}, as written on its command line: {@code [NAME=][USER@]HOST[:PORT]}.
 *
 * @param name the host's name in the fleet: NAME, else HOST[:PORT] as written
 * @param user the login, or null for ~/.ssh/config's User, else the local user
 * @param host what to connect to (an alias ~/.ssh/config may resolve to another HostName)
 * @param port the port, or 0 for ~/.ssh/config's Port, else 22
 */
public record Destination(String name, String user, String host, int port) {
    private static final Pattern FORM = Pattern.compile("(?:([^=@\\s]+)=)?(?:([^@\\s]+)@)?(\\[[0-9A-Fa-f:.]+]|[^:@\\[\\]\\s]+)(?::([0-9]+))?");

    public Destination {
        if (port < 0 || port > 65535) throw new IllegalArgumentException("port " + port + " is not between 1 and 65535");
    }

    /** Parses DEST; a bad one is an IllegalArgumentException saying what was expected. */
    public static Destination parse(String dest) {
        Matcher m = FORM.matcher(dest);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + dest + "': expected [NAME=][USER@]HOST[:PORT] (an IPv6 address in brackets: [::1]:2222)");
        }
        String host = m.group(3);
        String bare = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
        int port = 0;
        if (m.group(4) != null) {
            port = m.group(4).length() > 5 ? -1 : Integer.parseInt(m.group(4));
            if (port < 1 || port > 65535) throw new IllegalArgumentException("'" + dest + "': port " + m.group(4) + " is not between 1 and 65535");
        }
        String written = m.group(4) == null ? host : host + ":" + m.group(4);
        return new Destination(m.group(1) != null ? m.group(1) : written, m.group(2), bare, port);
    }
}
