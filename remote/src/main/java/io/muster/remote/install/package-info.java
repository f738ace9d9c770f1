/**
 * Putting muster on a host that has neither muster nor Java: the {@link io.muster.remote.install.Payload} (the
 * shaded jar and a jlink runtime for Linux x86_64) is copied over an {@link io.muster.remote.ssh.SshConnection} into
 * a cache directory named by its digest, atomically, and reused by later runs ({@link io.muster.remote.install.RemoteCache}).
 * A host's etcd certificate for one run goes beside it, into a directory only the login can enter ({@link
 * io.muster.remote.install.RemoteCredentials}). May import {@code ssh} and the agent's {@code etcd} package (its TLS files).
 */
package io.muster.remote.install;
