/**
 * Deploys: reading a bundle ({@link io.muster.coordinator.deploy.BundleReader}, {@code IgnoreRules}),
 * validating it for the fleet's hosts ({@link io.muster.coordinator.deploy.Validation},
 * {@link io.muster.coordinator.deploy.HostTarget}, which also says what any host is compiled with), publishing
 * it ({@link io.muster.coordinator.deploy.Deployer}) and the history with rollback
 * ({@link io.muster.coordinator.deploy.DeployHistory}). May import {@code etcd}, the agent's {@code etcd}
 * package, the proto messages and the engine; never the coordinator daemon's package.
 */
package io.muster.coordinator.deploy;
