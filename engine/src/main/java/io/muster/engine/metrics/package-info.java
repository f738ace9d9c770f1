/**
 * The Prometheus metrics of a live run ({@code muster run --prometheus}): checks, applies, failures,
 * convergence, per kind. Imports the Prometheus client only; the run tells it what happened.
 */
package io.muster.engine.metrics;
