/**
 * The {@code package} kind: Debian packages through dpkg and apt. A run's package resources share one
 * session ({@code PackageSession}: the database read by one {@code dpkg-query}, read again when dpkg's status
 * file changed); autogroup merges them into one {@code PackageTransaction}, changed by one {@code apt-get
 * install} ({@code AptTransaction}). {@code Apt} runs the tools with argv, {@code AptFailure} says what their
 * errors mean.
 *
 * <p>May import {@code resource} (the SPI), {@code process}, {@code util} and {@code manifest} (to describe a
 * value in a message); never another kind, {@code compile}, {@code run}, {@code report} or {@code cli}.
 */
package io.muster.engine.resource.pkg;
