import { existsSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { STATUSES } from '../../lib/core/status.js';
import { svc } from '../helpers/cli.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

const doctor = suite('cli.doctor');
doctor.after.each(cleanRoots);

doctor(
  'a fresh root is fine: the status directories svc creates when needed are named, not counted as problems, and exit is 0',
  async () => {
    const root = tempRoot();
    const plan = await svc(root, 'doctor');
    assert.is(plan.code, 0, plan.stdout);
    assert.match(
      plan.stdout,
      /^not created yet \(svc creates them when first needed; `svc doctor --fix` creates them now\): tasks\/backlog, tasks\/ready, /,
    );
    assert.match(plan.stdout, /\nok: no problems\n$/);
    const json = JSON.parse((await svc(root, 'doctor', '--json')).stdout) as {
      ok: boolean;
      problems: number;
      notCreated: string[];
    };
    assert.equal([json.ok, json.problems, json.notCreated.length], [true, 0, STATUSES.length]);
    assert.is((await svc(root, 'doctor', '--fix')).code, 0);
    for (const status of STATUSES) assert.ok(existsSync(`${root}/tasks/${status}/.gitkeep`), status);
    assert.is((await svc(root, 'doctor')).stdout, 'ok: no problems\n');
  },
);

doctor.run();
