/** Listener arguments by signal name, e.g. `{ changed: [ids: string[]] }`. */
export type SignalMap<M> = { [K in keyof M]: unknown[] };

/** A typed, synchronous emitter: the signals of one long-lived part. */
export interface Emitter<M extends SignalMap<M>> {
  /** Adds a listener; returns the function that removes it. */
  on<K extends keyof M>(name: K, listener: (...args: M[K]) => void): () => void;
  off<K extends keyof M>(name: K, listener: (...args: M[K]) => void): void;
  /** Calls every listener of `name` now, in the order they were added. */
  emit<K extends keyof M>(name: K, ...args: M[K]): void;
}

/** Options of `createEmitter`. */
export interface EmitterOptions {
  /** Told of a listener that threw; the other listeners, and the emitter, go on. */
  onError?: (err: unknown, name: string) => void;
}

/**
 * Creates an emitter of the signals `M`. Listeners run synchronously within `emit`; one that throws
 * (or returns a promise that rejects) is reported to `onError`, never thrown into the emitting part.
 */
export function createEmitter<M extends SignalMap<M>>(options: EmitterOptions = {}): Emitter<M> {
  const listeners = new Map<keyof M, Set<(...args: never) => unknown>>();
  const report = (err: unknown, name: keyof M) => options.onError?.(err, String(name));
  return {
    on(name, listener) {
      const set = listeners.get(name) ?? new Set();
      listeners.set(name, set.add(listener));
      return () => void set.delete(listener);
    },
    off(name, listener) {
      listeners.get(name)?.delete(listener);
    },
    emit(name, ...args) {
      for (const listener of [...(listeners.get(name) ?? [])]) {
        try {
          const result = (listener as (...a: M[typeof name]) => unknown)(...args);
          if (result instanceof Promise) result.catch((err: unknown) => report(err, name));
        } catch (err) {
          report(err, name);
        }
      }
    },
  };
}
