import type { MurmurView } from '../../../lib/engine/murmur/evaluate.js';
import { newMurmurState, type MurmurState } from '../../../lib/engine/murmur/state.js';
import type { Murmur } from '../../../lib/org/schema.js';

// The murmur unit tests' clock, triggers, views and states (test/engine/murmur/*.test.ts).
export const NOW = new Date('2026-11-21T10:00:00.000Z');
export const murmur = (triggers: Murmur['triggers'], reviewTimeoutMs = 60_000): Murmur => ({
  triggers,
  context: [],
  reviewTimeoutMs,
});
export const view = (m: Murmur, extra: Partial<MurmurView> = {}): MurmurView => ({
  murmur: m,
  ready: 0,
  inProgress: 0,
  running: 0,
  maxConcurrentDispatches: 3,
  reviewStatus: undefined,
  indexLoaded: true,
  ...extra,
});
export const state = (extra: Partial<MurmurState> = {}): MurmurState => ({ ...newMurmurState(), ...extra });
export const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
