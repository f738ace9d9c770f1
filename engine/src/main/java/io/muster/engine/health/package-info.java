/**
 * A resource's health checks: commands tried until they report OK ({@link io.muster.engine.health.HealthChecks}),
 * what they reported ({@link io.muster.engine.health.HealthResult}), and the stop that ends their tries
 * ({@link io.muster.engine.health.StopSignal}). May import {@code process} (to run the commands) and
 * {@code util}; knows nothing of resources or runs.
 */
package io.muster.engine.health;
