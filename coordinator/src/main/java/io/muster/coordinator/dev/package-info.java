/** {@code muster coordinator --dev}: a private etcd for trying the fleet on one machine. */
package io.muster.coordinator.dev;
