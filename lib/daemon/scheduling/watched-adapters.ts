import type { Adapter } from '../../core/spawn.js';
import type { AdapterKind } from '../../engine/plan.js';

/**
 * The adapters as the scheduler sees them: each spawn handed over is told to `onHanded`, each run's end to `onEnded`.
 */
export function toWatched(
  adapters: Record<AdapterKind, Adapter>,
  hooks: { onHanded?: ((taskId: string, adapter: AdapterKind) => void) | undefined; onEnded: (taskId: string) => void },
): Record<AdapterKind, Adapter> {
  const watched = (adapter: Adapter): Adapter => ({
    kind: adapter.kind,
    spawn: async (request) => {
      const run = await adapter.spawn(request);
      hooks.onHanded?.(request.taskId, adapter.kind);
      void run.ended?.finally(() => hooks.onEnded(request.taskId));
      return run;
    },
  });
  return {
    command: watched(adapters.command),
    standalone: watched(adapters.standalone),
    plugin: watched(adapters.plugin),
  };
}
