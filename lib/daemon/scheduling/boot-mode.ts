import type { Mode } from '../../engine/plan.js';

/** What decides the mode at boot. */
export interface BootOptions {
  /** The boot window (bootWindowMs). */
  windowMs: number;
  /** The poll interval (two polls end the window if sooner). */
  pollMs: number;
  /** True while a plugin is attached. */
  attached: () => boolean;
  /** Gets one line when the mode is decided. */
  log: (line: string) => void;
}

/**
 * The mode decided at boot: a plugin that attaches within the boot window (bootWindowMs, or the first two
 * polls if sooner) makes the daemon plugin-expected; otherwise it is standalone.
 */
export function createBoot({ windowMs, pollMs, attached, log }: BootOptions) {
  let mode: Mode = 'booting';
  let polls = 0;
  const listeners: (() => void)[] = [];
  const decide = () => {
    if (mode !== 'booting') return;
    mode = attached() ? 'plugin' : 'standalone';
    log(
      `mode: ${mode} (` +
        (mode === 'plugin' ? 'a plugin attached during the boot window' : 'no plugin attached during the boot window') +
        `)`,
    );
    clearInterval(watch);
    clearTimeout(timer);
    listeners.forEach((fn) => fn());
  };
  const timer = setTimeout(decide, Math.min(windowMs, 2 * pollMs));
  const watch = setInterval(() => attached() && decide(), 100);
  return {
    mode: () => mode,
    polled: () => ++polls >= 2 && decide(),
    onDecided: (fn: () => void) => listeners.push(fn),
    close() {
      clearTimeout(timer);
      clearInterval(watch);
    },
  };
}
