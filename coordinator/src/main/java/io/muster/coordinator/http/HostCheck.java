package io.muster.coordinator.http;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Refuses (421) a request whose {@code Host} header names this coordinator by a name it was not given: DNS
 * rebinding points an attacker's name at 127.0.0.1 (or a LAN address), and the browser then lets the attacker's page
 * read the API as its own origin; the one thing it cannot change is the {@code Host} header, which keeps the
 * attacker's name. Admitted: an IP address (a rebinding needs a name), {@code localhost}, each with the port it
 * listens on, and the names of {@code --api-host} (the ones the operator vouches for, a reverse proxy's among them),
 * with any port or none.
 */
final class HostCheck extends Filter {
    private static final Pattern IPV4 = Pattern.compile("[0-9]{1,3}(\\.[0-9]{1,3}){3}");
    private static final Pattern IPV6 = Pattern.compile("\\[[0-9a-f:.]+]");

    private final Set<String> names;
    private final int port;

    /** @param names the {@code --api-host} names; @param port the port it listens on */
    HostCheck(List<String> names, int port) {
        this.names = names.stream().map(n -> n.toLowerCase(Locale.ROOT)).collect(Collectors.toUnmodifiableSet());
        this.port = port;
    }

    @Override
    public void doFilter(HttpExchange exchange, Chain chain) throws IOException {
        String host = exchange.getRequestHeaders().getFirst("Host");
        if (host != null && admits(host.strip().toLowerCase(Locale.ROOT))) {
            chain.doFilter(exchange);
            return;
        }
        Exchanges.error(exchange, 421, (host == null ? "no Host header" : "Host '" + host + "' is not a name of this coordinator")
                + " (refused against DNS rebinding): use an IP address or localhost with port " + port + ", or start the coordinator with --api-host NAME");
    }

    private boolean admits(String host) {
        int colon = host.lastIndexOf(':');
        boolean hasPort = colon > host.lastIndexOf(']');
        String name = hasPort ? host.substring(0, colon) : host;
        if (names.contains(name)) return true;
        String given = hasPort ? host.substring(colon + 1) : "80";
        if (!given.equals(Integer.toString(port))) return false;
        return name.equals("localhost") || IPV4.matcher(name).matches() || IPV6.matcher(name).matches();
    }

    @Override
    public String description() {
        return "refuses a Host header that is not this coordinator's";
    }
}
