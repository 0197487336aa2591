import { writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildReview, isReviewTitle } from '../../../lib/engine/murmur/review.js';
import type { Team } from '../../../lib/org/schema.js';
import { toPaths } from '../../../lib/store/disk/paths.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';
import { state } from './murmur-fixtures.js';

const review = suite('engine.buildReview');
review.after.each(cleanRoots);

review('routes to the orchestrator with metadata.murmur and the context sections in order', async () => {
  const root = tempRoot();
  const paths = toPaths(root);
  const { mkdirSync } = await import('node:fs');
  mkdirSync(paths.org, { recursive: true });
  writeFileSync(paths.orgDoc('vision'), 'Ship a calm product.\n');
  const team = {
    id: 'core',
    name: 'Core',
    members: ['dev'],
    orchestrator: 'lead',
    murmur: {
      triggers: [{ kind: 'queueEmpty' as const }],
      context: ['taskSummary', 'vision', 'roadmap'],
      reviewTimeoutMs: 1,
    },
  } satisfies Team;
  const input = await buildReview({
    paths,
    team,
    trigger: 'completionBatch',
    reason: '3 tasks completed',
    state: state({ completionsSinceLastReview: 3 }),
    summary: () => ({
      completed: [{ id: 'T-1', title: 'Fix login', status: 'done', dispatchFailures: 0 }],
      failing: [],
      open: { ready: 1, inProgress: 0, blocked: 0 },
    }),
  });
  assert.is(input.title, 'Murmur review: core (completionBatch)');
  assert.ok(isReviewTitle(input.title, 'core') && !isReviewTitle(input.title, 'cor'));
  assert.equal(input.routing, { agent: 'lead' });
  assert.equal(input.metadata, { murmur: { team: 'core', trigger: 'completionBatch' } });
  const body = input.body ?? '';
  assert.ok(body.indexOf('## Task summary') < body.indexOf('## Vision'), body);
  assert.match(body, /- T-1 "Fix login" \(done\)/);
  assert.match(body, /3 completed, 0 failed/);
  assert.match(body, /## Vision\n\nShip a calm product\./);
  assert.not.match(body, /## Roadmap/, 'a missing document is left out');
  assert.not.match(body, /went stale/);
});

review('names the earlier reviews that went stale and are still open', async () => {
  const paths = toPaths(tempRoot());
  const team = {
    id: 'core',
    name: 'Core',
    members: ['dev'],
    orchestrator: 'lead',
    murmur: { triggers: [{ kind: 'queueEmpty' as const }], context: [], reviewTimeoutMs: 1 },
  } satisfies Team;
  const input = await buildReview({
    paths,
    team,
    trigger: 'interval',
    reason: 'r',
    state: state(),
    summary: () => ({ completed: [], failing: [], open: { ready: 0, inProgress: 0, blocked: 0 } }),
    staleReviews: [{ id: 'T-7', title: 'Murmur review: core (interval)', status: 'in-progress', dispatchFailures: 0 }],
  });
  assert.match(
    input.body ?? '',
    /Earlier reviews of this team went stale[^\n]*\n- T-7 "Murmur review: core \(interval\)" \(in-progress\)/,
  );
});

review.run();
