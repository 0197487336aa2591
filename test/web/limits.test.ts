import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { WebAddress } from '../../lib/net/protocol/bodies.js';
import { MAX_STREAMS } from '../../lib/web/limits.js';
import { call, type ChildDaemon } from '../helpers/daemon.js';
import { killHostiles, startHostile } from '../helpers/hostile.js';
import { cleanRoots } from '../helpers/root.js';
import { authed, startBoardProcess, webRequest } from '../helpers/web.js';

// Whoever holds the board's connections, its operator's page is answered (docs/web-board.md, "Security").
const limits = suite('web.limits');
let daemon: ChildDaemon | undefined;
limits.after.each(async () => {
  await killHostiles();
  await daemon?.kill();
  cleanRoots();
});

async function boardDaemon(): Promise<{ root: string; web: WebAddress }> {
  const started = await startBoardProcess();
  daemon = started.daemon;
  return started;
}

/** The operator's page and its JSON, each answered 200 while the board is under siege. */
async function operatorServed(web: WebAddress): Promise<void> {
  for (const path of ['/', '/api/meta', '/agents']) {
    const answer = await webRequest(web.port, 'GET', path, authed(web.token, web.port));
    assert.is(answer.status, 200, `${path}: ${answer.text.slice(0, 300)}`);
  }
}

limits(
  "600 connections holding unfinished request heads, renewed as they are cut, leave the operator's page answering",
  async () => {
    const { root, web } = await boardDaemon();
    const heads = startHostile({
      socket: `port:${web.port}`,
      kind: 'trickle-head',
      count: 600,
      everyMs: 500,
      reconnect: true,
    });
    await heads.until((s) => s.opened >= 600 && s.open >= 400, 'the head tricklers connected');
    await operatorServed(web);
    // past the cap each newcomer closes the longest-waiting head; the rest are cut at 2 s with a 408
    await heads.until((s) => s.closed >= 600, 'the head tricklers cut off');
    await operatorServed(web);
    assert.is((await call(root, 'GET', '/healthz')).status, 200);
  },
);

limits(
  `600 event streams with the token: past ${MAX_STREAMS} they are refused 429, and the operator's page is answered`,
  async () => {
    const { web } = await boardDaemon();
    const cookie = `Cookie: svc_web_${web.port}=${web.token}`;
    const streams = startHostile({
      socket: `port:${web.port}`,
      kind: 'board-stream',
      count: 600,
      everyMs: 0,
      reconnect: false,
      headers: [cookie],
    });
    await streams.until((s) => (s.statuses['200'] ?? 0) + (s.statuses['429'] ?? 0) >= 600, 'every stream answered');
    const { statuses } = streams.stats();
    assert.is(statuses['200'], MAX_STREAMS, JSON.stringify(statuses));
    assert.is(statuses['429'], 600 - MAX_STREAMS, JSON.stringify(statuses));
    await operatorServed(web);
    await streams.kill();
    // the streams' places are freed as they close: the operator's own stream is taken again
    await streams.until(() => true, 'closed');
    const own = await webRequest(web.port, 'HEAD', '/api/board/stream', authed(web.token, web.port));
    assert.is(own.status, 200);
  },
);

limits.run();
