import type { Runtime } from './runtime.js';

/** The gemini runtime (docs/agent-runtimes.md). */
export const gemini: Runtime = {
  name: 'gemini',
  defaultBin: 'gemini',
  invocation() {
    throw new Error('the gemini runtime is not built yet');
  },
  parser: () => ({ line: () => [] }),
  hasSession: () => false,
};
