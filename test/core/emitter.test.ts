import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createEmitter } from '../../lib/core/emitter.js';

type Signals = { changed: [ids: string[]]; stopped: [] };

const emitter = suite('core.createEmitter');

emitter('calls the listeners of a signal synchronously, in the order they were added, with its arguments', () => {
  const signals = createEmitter<Signals>();
  const seen: string[] = [];
  signals.on('changed', (ids) => seen.push(`a ${ids.join(',')}`));
  signals.on('changed', (ids) => seen.push(`b ${ids.join(',')}`));
  signals.on('stopped', () => seen.push('stopped'));
  signals.emit('changed', ['T-1', 'T-2']);
  assert.equal(seen, ['a T-1,T-2', 'b T-1,T-2']);
});

emitter('a listener removed by off or by the function on returns is no longer called', () => {
  const signals = createEmitter<Signals>();
  let a = 0;
  let b = 0;
  const countA = () => void a++;
  signals.on('stopped', countA);
  const removeB = signals.on('stopped', () => void b++);
  signals.emit('stopped');
  signals.off('stopped', countA);
  removeB();
  signals.emit('stopped');
  assert.equal([a, b], [1, 1]);
});

emitter(
  'a listener that throws or rejects is reported to onError; the others run and emit does not throw',
  async () => {
    const errors: string[] = [];
    const signals = createEmitter<Signals>({
      onError: (err, name) => errors.push(`${name}: ${(err as Error).message}`),
    });
    let after = 0;
    signals.on('changed', () => {
      throw new Error('boom');
    });
    signals.on('changed', async () => {
      throw new Error('later');
    });
    signals.on('changed', () => void after++);
    signals.emit('changed', []);
    await Promise.resolve();
    assert.is(after, 1);
    assert.equal(errors, ['changed: boom', 'changed: later']);
  },
);

emitter('emitting a signal without listeners does nothing', () => {
  const signals = createEmitter<Signals>({ onError: () => assert.unreachable('no error') });
  signals.emit('stopped');
});

emitter.run();
