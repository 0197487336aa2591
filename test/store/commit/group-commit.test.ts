import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createStore } from '../../../lib/store/commit/store.js';
import { killWorkers, startWorker } from '../../helpers/children.js';
import { svc } from '../../helpers/cli.js';
import { checkTree } from '../../helpers/invariants.js';
import { cleanRoots, tempRoot, within } from '../../helpers/root.js';

const group = suite('store: group commit');
group.after.each(async () => {
  await killWorkers();
  cleanRoots();
});

const KILLS = 5;
const LANES = 16;

group(
  `a writer SIGKILLed ${KILLS} times amid groups of ${LANES * 2} changes loses no change it acknowledged`,
  async () => {
    const root = tempRoot();
    const store = createStore({ root });
    const ids: string[] = [];
    for (let i = 0; i < LANES; i++) ids.push((await store.create({ title: `Moved ${i}`, createdBy: 'test' })).task.id);
    const created = new Set(ids);
    let inFlightAtKills = 0;
    for (let round = 0; round < KILLS; round++) {
      const worker = startWorker({ op: 'group', root, ids });
      await worker.waitFor(/^start$/);
      const kind = round % 2 ? 'moved' : 'created';
      const acked = () => worker.lines.filter((line) => line.startsWith(`${kind} `)).length;
      const failed = () => worker.child.exitCode !== null && Promise.reject(new Error(worker.stderr().slice(-1000)));
      // Killed once it has acknowledged 20 changes of a kind, right after it acknowledged one more (every lane has one in flight then).
      await within(30_000, () => acked() >= 20 || failed(), `20 acknowledged changes (${kind})`);
      const seen = acked();
      await within(30_000, () => acked() > seen || failed(), `one more acknowledged change (${kind})`);
      await worker.kill();
      assert.is(
        worker.child.signalCode,
        'SIGKILL',
        `round ${round}: the worker ended by itself: ${worker.stderr().slice(-1000)}`,
      );
      const lines = [...worker.lines];
      const ackedStep = new Map<string, number>();
      const writing = new Map<string, number>();
      for (const line of lines) {
        const [what, id, step] = line.split(' ');
        if (what === 'created') created.add(id!);
        if (what === 'moved') ackedStep.set(id!, Math.max(ackedStep.get(id!) ?? 0, Number(step)));
        if (what === 'writing') writing.set(id!, Math.max(writing.get(id!) ?? 0, Number(step)));
      }
      inFlightAtKills += [...writing].filter(([id, step]) => step > (ackedStep.get(id) ?? 0)).length;
      // Every acknowledged change is on disk: each created task, each move at its step or a later one.
      for (const id of lines.filter((line) => line.startsWith('created ')).map((line) => line.slice(8))) {
        await store
          .get(id)
          .catch((err: unknown) =>
            assert.unreachable(`round ${round}: acknowledged create ${id} is gone: ${String(err)}`),
          );
      }
      for (const [id, step] of ackedStep) {
        const { task, status } = await store.get(id);
        const onDisk = Number(task.metadata.step);
        assert.ok(
          onDisk >= step && onDisk <= (writing.get(id) ?? step),
          `round ${round}: ${id} acknowledged at step ${step}, step ${onDisk} on disk`,
        );
        assert.is(status, onDisk % 2 ? 'ready' : 'backlog', `round ${round}: ${id} at step ${onDisk} is in ${status}`);
      }
      const doctor = await svc(root, 'doctor', '--fix');
      assert.is(doctor.code, 0, `round ${round}: doctor --fix failed:\n${doctor.stdout}${doctor.stderr}`);
      const { violations, where } = await checkTree(root, created);
      assert.equal(violations, [], `round ${round}`);
      for (const id of where.keys()) created.add(id); // a create killed before it was acknowledged may stay too
    }
    assert.ok(inFlightAtKills > 0, 'the kills hit changes in flight (written or being written, not yet acknowledged)');
    process.stdout.write(
      `  (${KILLS} kills, ${created.size} tasks, ${inFlightAtKills} moves in flight at the kills)\n`,
    );
  },
);

group.run();
