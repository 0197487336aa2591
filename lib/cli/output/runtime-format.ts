import { toTerminalText } from '../../core/text.js';
import type { RuntimeCheck } from '../../adapters/runtimes/probe.js';

/**
 * One line per runtime agent, `agent <id> (<runtime>): <version> (<path>)`, or its problem and, below it, the hint
 * (`svc org validate`, `svc doctor`).
 */
export function formatRuntimeChecks(checks: readonly RuntimeCheck[]): string[] {
  return checks.flatMap((check) => {
    const head = `agent ${check.agent} (${check.runtime}): `;
    if (!check.problem) return [toTerminalText(`${head}${check.version} (${check.path})`)];
    return [toTerminalText(`${head}problem: ${check.problem}`), toTerminalText(`  hint: ${check.hint ?? ''}`)];
  });
}
