import { main } from '../../lib/cli/main.js';

/** Result of one in-process CLI run. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `svc <argv>` in-process against `root`. */
export async function svc(root: string, ...argv: string[]): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env: { SVC_HOME: root },
  });
  return { code, stdout, stderr };
}
