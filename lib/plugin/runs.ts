/**
 * The idempotency key of the gateway run of a spawn: `svc-<spawn id>`. The gateway uses it as the
 * run's id, so a hook of that run names its spawn without any state shared between the gateway's
 * registrations of the plugin (each may load its own copy of the module).
 */
export function toRunKey(spawnId: string): string {
  return `svc-${spawnId}`;
}

/** The spawn a gateway run belongs to, when it is one the plugin started (`svc-<spawn id>`). */
export function toSpawnId(runId: string | undefined): string | undefined {
  return runId?.startsWith('svc-') && runId.length > 4 ? runId.slice(4) : undefined;
}
