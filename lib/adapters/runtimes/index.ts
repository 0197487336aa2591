import type { RuntimeName } from '../../org/runtimes.js';
import { claudeCode } from './claude-code.js';
import { codex } from './codex.js';
import { gemini } from './gemini.js';
import type { Runtime } from './runtime.js';

/** Every agent CLI svc runs, by the name an agent's `runtime` gives. */
export const RUNTIMES_BY_NAME: Readonly<Record<RuntimeName, Runtime>> = {
  'claude-code': claudeCode,
  codex,
  gemini,
};
