import { existsSync } from 'node:fs';
import { SvcError } from '../../core/errors.js';

/**
 * The commands that create the root when it does not exist yet (docs/state-on-disk.md): the
 * sample workspace, the gateway setup, the daemon and its service, creating a task, and serving or
 * invoking `svc_dispatch`. `svc org validate <path>` reads only that file, and `svc daemon
 * uninstall` removes a service whose root may be gone.
 */
const CREATES: Record<string, readonly string[] | ((args: readonly unknown[]) => boolean)> = {
  quickstart: [''],
  init: [''],
  mcp: [''],
  tool: (args) => args[0] === 'svc_dispatch',
  task: ['create'],
  daemon: ['run', 'start', 'install', 'uninstall', 'watchdog'],
  org: (args) => args[0] !== undefined,
};

/** A command as typed: its group, its name in the group (empty for a top-level command), its arguments. */
export interface Invocation {
  group: string;
  command: string;
  args: readonly unknown[];
}

/**
 * Throws `not_found` when `root` does not exist and the command (`group` and `command`, the latter
 * empty for a top-level command; `args` its arguments) is not one that creates it: a mistyped
 * `SVC_HOME` would otherwise read as an empty tree (`(no tasks)`, exit 0).
 */
export function assertRootExists(root: string, { group, command, args }: Invocation): void {
  if (existsSync(root)) return;
  const creates = Object.hasOwn(CREATES, group) ? CREATES[group]! : [];
  if (typeof creates === 'function' ? creates(args) : creates.includes(command)) return;
  throw new SvcError(
    'not_found',
    `The svc root ${root} does not exist (it is SVC_HOME, default ~/.svc): there is nothing to read or change there.`,
    'Point SVC_HOME at an existing root, or create this one: `svc quickstart` ' +
      '(a sample workspace), `svc daemon start` or `svc task create <title>`.',
  );
}
