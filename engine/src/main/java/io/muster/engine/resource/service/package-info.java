/**
 * {@code service}: a system service running or stopped, enabled at boot or not, restarted (or reloaded) when a
 * resource it subscribes to changed. Two {@link io.muster.engine.resource.service.ServiceManager managers}:
 * {@link io.muster.engine.resource.service.Systemd} where the host booted with systemd ({@code /run/systemd/system}
 * exists, as {@code sd_booted(3)} checks), {@link io.muster.engine.resource.service.InitScript} otherwise;
 * {@link io.muster.engine.resource.service.Managers} chooses.
 *
 * <p>Watching, without polling every second: under systemd, a {@code journalctl --follow} of the lines systemd
 * itself (pid 1) logs about the unit, one per state change (started, stopped, failed, main process exited): the
 * unit's {@code PropertiesChanged} D-Bus signals are only sent while some client has called {@code Subscribe},
 * which no command-line tool keeps doing. Under init scripts, the pid file through inotify (a start, a stop, a
 * restart rewrites or removes it) and the daemon's exit through the JDK's wait for a process that is not its
 * child (a check of {@code /proc} with a back-off up to 5 s, no process started). Enablement is not watched:
 * it is checked again on the next event.
 */
package io.muster.engine.resource.service;
