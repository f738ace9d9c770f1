/**
 * SSH for the agentless mode: reaching a host ({@link io.muster.remote.ssh.Destination}, ~/.ssh/config), trusting it
 * (known_hosts), logging in (keys, ssh-agent, a password only when allowed), and what muster does over the connection:
 * run a command and stream its lines, copy a file, forward a port on the remote's loopback back to this machine.
 * Nothing here knows of etcd or the graph.
 */
package io.muster.remote.ssh;
