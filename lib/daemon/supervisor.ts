import { execFile } from 'node:child_process';
import { userInfo } from 'node:os';
import type { Runner, ServiceFile, ServiceOptions } from './service-file.js';

/**
 * Why the user supervisor cannot be used, or null when it can. It is used only for the real home
 * of this user (a unit written elsewhere is invisible to it) and when it answers.
 */
export async function supervisorProblem(kind: ServiceFile['kind'], options: ServiceOptions): Promise<string | null> {
  if (options.home !== userInfo().homedir)
    return `${options.home} is not the home of this user, so the supervisor would not see the file`;
  const probe =
    kind === 'launchd'
      ? (['launchctl', ['print', `gui/${userInfo().uid}`]] as const)
      : (['systemctl', ['--user', 'show-environment']] as const);
  const result = await runner(options)(probe[0], [...probe[1]]);
  if (result.code === 0) return null;
  const detail = (result.stderr || result.stdout).trim().split('\n')[0] || `exit code ${result.code}`;
  return `${kind === 'launchd' ? 'launchctl' : 'systemctl --user'} is not available here (${detail})`;
}

/** Runs the supervisor's steps of `action` for a unit; a step that must not fail and fails throws with its output. */
export async function supervise(
  service: ServiceFile,
  options: ServiceOptions,
  action: 'reload' | 'start' | 'stop' | 'remove',
): Promise<void> {
  const run = runner(options);
  const steps = service.kind === 'launchd' ? launchdSteps(service, action) : systemdSteps(service.name, action);
  for (const [command, args, mayFail] of steps) {
    const result = await run(command, args);
    if (result.code !== 0 && !mayFail)
      throw new Error(
        `${command} ${args.join(' ')} failed (exit ${result.code}): ${(result.stderr || result.stdout).trim()}`,
      );
  }
}

/** The command runner of `options` (tests pass their own), else the real one. */
export function runner(options: ServiceOptions): Runner {
  return options.run ?? runCommand;
}

// --- internal ---

type Step = [command: string, args: string[], mayFail: boolean];

function systemdSteps(unit: string, action: 'reload' | 'start' | 'stop' | 'remove'): Step[] {
  const ctl = (...args: string[]): Step => ['systemctl', ['--user', ...args], false];
  if (action === 'reload') return [ctl('daemon-reload'), ctl('enable', unit), ctl('restart', unit)];
  if (action === 'start') return [ctl('enable', unit), ctl('start', unit)];
  if (action === 'stop') return [ctl('stop', unit)];
  return [ctl('disable', '--now', unit)];
}

function launchdSteps(service: ServiceFile, action: 'reload' | 'start' | 'stop' | 'remove'): Step[] {
  const target = `gui/${userInfo().uid}`;
  const bootout: Step = ['launchctl', ['bootout', `${target}/${service.name}`], true];
  const bootstrap: Step = ['launchctl', ['bootstrap', target, service.file], true];
  const kickstart: Step = ['launchctl', ['kickstart', `${target}/${service.name}`], false];
  if (action === 'reload') return [bootout, bootstrap, kickstart];
  if (action === 'start') return [bootstrap, kickstart];
  if (action === 'stop') return [['launchctl', ['kill', 'SIGTERM', `${target}/${service.name}`], false]];
  return [bootout];
}

/** Runs a command; a missing binary is exit code 127, never a throw. */
function runCommand(command: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { timeout: 15_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 127) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr || (err && !stdout ? err.message : '')) });
    });
  });
}
