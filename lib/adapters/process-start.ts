import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describeError } from '../core/errors.js';
import { SpawnError } from '../core/spawn.js';

/** What to start: the program and its arguments, its environment, its working directory, its stdin text. */
export interface AgentProcess {
  argv: readonly string[];
  env: Record<string, string | undefined>;
  cwd: string;
  /** Handed over as stdin (a private file read from offset 0); null for an empty stdin. */
  prompt: string | null;
}

/** Where the process writes: descriptors this call closes once the child has them, and a directory for the prompt. */
export interface AgentOutput {
  stdout: number;
  stderr: number;
  /** A directory of the daemon's own where the prompt's file is made (and unlinked at once). */
  promptDir: string;
  /** Do not keep this process alive for the child. */
  unref?: boolean | undefined;
  /** The child did not start: what to tell its log. */
  failed(message: string): void;
}

/**
 * Starts an agent detached (its own process group) with the prompt as stdin: a private file, written, unlinked,
 * handed over as a descriptor (read from offset 0). Output goes straight to the given descriptors, so nothing but
 * the exit ties the agent to this process. Rejects with a `SpawnError` when it cannot start.
 */
export function startAgentProcess(what: AgentProcess, output: AgentOutput): Promise<ChildProcess> {
  const { argv, env, cwd, prompt } = what;
  const fds = [...new Set([output.stdout, output.stderr])];
  let input: number;
  try {
    mkdirSync(output.promptDir, { recursive: true });
    input = prompt === null ? openSync('/dev/null', 'r') : openPrompt(output.promptDir, prompt);
  } catch (err) {
    for (const fd of fds) closeSync(fd);
    output.failed(describeError(err));
    throw err;
  }
  const release = () => {
    for (const fd of fds) closeSync(fd);
    closeSync(input);
  };
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd,
      env,
      stdio: [input, output.stdout, output.stderr],
      detached: true,
    });
    if (output.unref) child.unref();
    child.once('spawn', () => {
      release();
      resolve(child);
    });
    child.once('error', (err: NodeJS.ErrnoException) => {
      release();
      output.failed(err.message);
      reject(
        new SpawnError(
          err.code === 'ENOENT' || err.code === 'EACCES' ? 'agent_unavailable' : 'spawn_failed',
          `cannot run ${argv[0]}: ${err.message}`,
          { cause: err },
        ),
      );
    });
  });
}

// --- internal ---

function openPrompt(dir: string, prompt: string): number {
  const path = join(dir, `.prompt-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const fd = openSync(path, 'wx+', 0o600);
  try {
    unlinkSync(path);
    writeSync(fd, prompt, 0, 'utf8'); // a positional write: the offset stays at 0 for the agent
    return fd;
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}
