import { claudeInvocation } from './claude-code-invocation.js';
import { claudeParser } from './claude-code-parser.js';
import { hasClaudeSession } from './claude-code-session.js';
import type { Runtime } from './runtime.js';

/** The claude-code runtime: Claude Code's print mode with JSONL output (docs/agent-runtimes.md). */
export const claudeCode: Runtime = {
  name: 'claude-code',
  defaultBin: 'claude',
  invocation: claudeInvocation,
  parser: claudeParser,
  hasSession: hasClaudeSession,
};
