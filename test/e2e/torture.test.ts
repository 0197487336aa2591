import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { findTaskFiles } from '../../lib/store/commit/copies.js';
import { initTree, createStore } from '../../lib/store/commit/store.js';
import { toPaths } from '../../lib/store/disk/paths.js';
import { completingAgent, writeOrg } from '../helpers/agents.js';
import { closeDaemons, runSvc, startChild, type ChildDaemon } from '../helpers/daemon.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';
import { kill, KINDS, readJournal, stallReport, type Kind, type Record, type Writer } from './torture-setup.js';

// The torture run: a daemon and three writers of different kinds (the command line, tools over the
// socket, files renamed in and moved by hand) work on one root while the daemon and the writers
// are SIGKILLed at random moments. Then `svc doctor` is clean and every change svc acknowledged
// is present exactly once. SVC_TORTURE_MS sets how long the chaos lasts (default 45 s);
// SVC_TORTURE_DEBUG=1 has each daemon trace its scheduler ticks to its log (DEBUG=svc:*).
const DURATION_MS = Number(process.env.SVC_TORTURE_MS ?? 45_000);
const startDaemon = (root: string) =>
  startChild(root, undefined, process.env.SVC_TORTURE_DEBUG ? { DEBUG: 'svc:*' } : {});
const writerScript = fileURLToPath(new URL('../helpers/torture-writer.ts', import.meta.url));

function startWriter(root: string, kind: Kind, generation: number): Writer {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', writerScript, kind, root, `${root}/journal-${kind}.jsonl`, String(generation)],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  child.stderr!.on('data', (chunk: Buffer) => void (writerErrors += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  return { kind, generation, child, exited };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const count = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.md')).length;

const writers: Writer[] = [];
let writerErrors = '';
const torture = suite('e2e.torture');
torture.after.each(async () => {
  writerErrors = '';
  await Promise.all(writers.splice(0).map((w) => kill(w.child, w.exited)));
  await closeDaemons();
  cleanRoots();
});

torture(
  `a daemon and three writers SIGKILLed at random for ${DURATION_MS / 1000} s: doctor clean, every acknowledged change present exactly once`,
  async () => {
    const root = tempRoot();
    const paths = toPaths(root);
    writeOrg(root, {
      agents: [{ id: 'dev', name: 'Dev', command: completingAgent(), maxConcurrent: 3 }],
      aof: {
        daemon: {
          bootWindowMs: 200,
          pollIntervalMs: 1000,
          rescanIntervalMs: 1000,
          defaultLeaseTtlMs: 30_000,
          retryBackoffMs: [200],
        },
      },
    });
    await initTree(paths);
    let daemon: ChildDaemon = startDaemon(root);
    for (const kind of KINDS) writers.push(startWriter(root, kind, 1));
    const kills = { daemon: 0, cli: 0, tool: 0, hand: 0 };
    const end = Date.now() + DURATION_MS;
    while (Date.now() < end) {
      await sleep(300 + Math.random() * 2200); // the chaos schedule: random moments, not a wait for a condition
      if (Math.random() < 0.5) {
        await daemon.kill();
        kills.daemon++;
        daemon = startDaemon(root);
      } else {
        const at = Math.floor(Math.random() * writers.length);
        const victim = writers[at]!;
        await kill(victim.child, victim.exited);
        kills[victim.kind]++;
        writers[at] = startWriter(root, victim.kind, victim.generation + 1);
      }
    }
    await Promise.all(writers.splice(0).map((w) => kill(w.child, w.exited)));

    // Settle: the last daemon runs every dispatched task to done (a stall of a minute fails).
    let last = -1;
    let since = Date.now();
    for (;;) {
      const open = count(paths.statusDir('ready')) + count(paths.statusDir('in-progress'));
      if (open === 0) break;
      const done = count(paths.statusDir('done'));
      if (done !== last) [last, since] = [done, Date.now()];
      if (Date.now() - since > 60_000)
        assert.unreachable(
          `${open} dispatched tasks still open after a minute without progress:\n${await stallReport(root, daemon)}`,
        );
      await sleep(200);
    }
    // The daemon heals the hand moves (frontmatter status from the directory) as its rescan finds them.
    const env = { SVC_HOME: root, HOME: root };
    let doctorSaid = '';
    const before = await within(
      30_000,
      async () => {
        const out = await runSvc(env, 'doctor', '--json');
        doctorSaid = out.stdout;
        const actions = (JSON.parse(out.stdout || '{}') as { actions?: { kind: string }[] }).actions ?? [];
        return actions.every((a) => a.kind !== 'heal') && actions;
      },
      'the daemon to heal the hand moves',
    ).catch(async (err: unknown) =>
      assert.unreachable(
        `${String(err)}\nsvc doctor --json: ${doctorSaid.slice(0, 3000)}\n\n${await stallReport(root, daemon)}`,
      ),
    );
    await daemon.kill();
    const fixed = await runSvc(env, 'doctor', '--fix');
    const doctor = await runSvc(env, 'doctor');

    const store = createStore({ root });
    const listing = await store.list();
    const byId = new Map(listing.tasks.map((t) => [t.task.id, t]));
    let lost = 0;
    let duplicated = 0;
    let corrupted = listing.invalid.length;
    const problems: string[] = listing.invalid.map((file) => `invalid: ${file.path}: ${file.message}`);
    const titles = new Map<string, number>();
    for (const t of listing.tasks) titles.set(t.task.title, (titles.get(t.task.title) ?? 0) + 1);
    for (const [title, n] of titles)
      if (n > 1) {
        duplicated++;
        problems.push(`title ${title} on ${n} tasks`);
      }
    const ops = { cli: 0, tool: 0, hand: 0 };
    for (const kind of KINDS) {
      const records = readJournal(root, kind);
      ops[kind] = records.filter((r) => r.op !== 'move-intent').length;
      const lastMove = new Map<string, Record>();
      for (const record of records) {
        const copies = (await findTaskFiles(paths, record.id)).length;
        const stored = byId.get(record.id);
        if (record.op === 'create') {
          if (copies === 0) {
            lost++;
            problems.push(`lost create ${record.id} (${record.title})`);
          }
          if (copies > 1) {
            duplicated++;
            problems.push(`${record.id} in ${copies} directories`);
          }
          if (stored && stored.task.title !== record.title) {
            corrupted++;
            problems.push(`${record.id} has title ${stored.task.title}, not ${record.title}`);
          }
          if (stored && record.dispatched && stored.status !== 'done') {
            lost++;
            problems.push(`dispatched ${record.id} ended in ${stored.status}`);
          }
        } else if (record.op === 'append') {
          const times = stored ? stored.body.split(`${record.mark}\n`).length - 1 : 0;
          if (times === 0) {
            lost++;
            problems.push(`lost ${record.mark} of ${record.id}`);
          }
          if (times > 1) {
            duplicated++;
            problems.push(`${record.mark} ${times} times in ${record.id}`);
          }
        } else {
          lastMove.set(record.id, record);
        }
      }
      for (const [id, record] of lastMove) {
        const stored = byId.get(id);
        if (record.op === 'move' && stored?.status !== 'blocked') {
          lost++;
          problems.push(`move of ${id} to blocked: it is in ${stored?.status ?? 'no directory'}`);
        }
        if (stored && stored.task.status !== stored.status) {
          corrupted++;
          problems.push(`${id} says ${stored.task.status} in ${stored.status}/`);
        }
      }
    }
    const total = ops.cli + ops.tool + ops.hand;
    const kinds = new Map<string, number>();
    for (const action of before) kinds.set(action.kind, (kinds.get(action.kind) ?? 0) + 1);
    const repairs = [...kinds].map(([kind, n]) => `${n} ${kind}`).join(', ') || 'nothing';
    process.stdout.write(
      `  (torture ${DURATION_MS / 1000} s: ${total} acknowledged changes (cli ${ops.cli}, tool ${ops.tool}, hand ${ops.hand}); SIGKILLs: daemon ${kills.daemon}, writers ${kills.cli + kills.tool + kills.hand}; ${listing.tasks.length} tasks; lost ${lost}, duplicated ${duplicated}, corrupted ${corrupted}; doctor before --fix: ${repairs})\n`,
    );
    assert.equal(problems, [], `writers' stderr:\n${writerErrors.slice(-2000)}`);
    assert.equal([lost, duplicated, corrupted], [0, 0, 0]);
    assert.ok(
      kills.daemon > 0 && ops.cli > 0 && ops.tool > 0 && ops.hand > 0,
      `every kind worked and the daemon was killed: ${JSON.stringify({ ops, kills })}`,
    );
    assert.is(fixed.code, 0, fixed.stdout + fixed.stderr);
    assert.is(doctor.code, 0, doctor.stdout + doctor.stderr);
    assert.match(doctor.stdout, /ok: no problems/);
  },
);

torture.run();
