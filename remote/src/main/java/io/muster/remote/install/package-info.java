/**
 * Putting muster on a host that has neither muster nor Java: the {@link io.muster.remote.install.Payload} (the
 * shaded jar and a jlink runtime for Linux x86_64) is copied over an {@link io.muster.remote.ssh.SshConnection} into
 * a cache directory named by its digest, atomically, and reused by later runs ({@link io.muster.remote.install.RemoteCache}).
 */
package io.muster.remote.install;
