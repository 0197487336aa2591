import type { Runtime } from './runtime.js';

/** The claude-code runtime (docs/agent-runtimes.md). */
export const claudeCode: Runtime = {
  name: 'claude-code',
  defaultBin: 'claude',
  invocation() {
    throw new Error('the claude-code runtime is not built yet');
  },
  parser: () => ({ line: () => [] }),
  hasSession: () => false,
};
