/**
 * Running commands for resource kinds: {@link io.muster.engine.process.ProcessRunner} starts a program
 * (argv, working directory, environment, search path, user and group, timeout) in a process group of its
 * own and captures its output up to a limit; {@link io.muster.engine.process.ProcessGroups} kills a
 * command with everything it started, and every running command on a forced stop. {@code exec} and
 * health checks run their commands here, and so will the package, service and user kinds.
 *
 * <p>Imports only the JDK: it knows nothing of resources, manifests or runs.
 */
package io.muster.engine.process;
