/**
 * {@code cron}: entries in a user's crontab, each under a {@code # Muster Name: NAME} line (Puppet's
 * {@code # Puppet Name:} convention) so that muster finds and replaces its own entries and leaves every other line
 * as it is; read with {@code crontab -u USER -l}, installed with {@code crontab -u USER FILE}.
 */
package io.muster.engine.resource.cron;
