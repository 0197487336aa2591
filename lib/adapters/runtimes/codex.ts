import type { Runtime } from './runtime.js';

/** The codex runtime (docs/agent-runtimes.md). */
export const codex: Runtime = {
  name: 'codex',
  defaultBin: 'codex',
  invocation() {
    throw new Error('the codex runtime is not built yet');
  },
  parser: () => ({ line: () => [] }),
  hasSession: () => false,
};
