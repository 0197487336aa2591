import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One recorded `/tools/invoke` call. */
export interface GatewayCall {
  authorization: string | undefined;
  body: { tool?: string; args?: Record<string, unknown> };
}

/** How the fake gateway answers a call: an HTTP status and a JSON body. */
export type GatewayReply = (call: GatewayCall) => { status: number; body: unknown };

/** A fake agent gateway on 127.0.0.1 that records `/tools/invoke` calls and answers as told. */
export async function startFakeGateway(reply: GatewayReply = accept) {
  const calls: GatewayCall[] = [];
  let answer = reply;
  const server: Server = createServer(async (req, res) => {
    const body = JSON.parse((await readBody(req)) || '{}');
    const call = { authorization: req.headers.authorization, body };
    if (req.method === 'POST' && req.url === '/tools/invoke') calls.push(call);
    const { status, body: out } = req.url === '/tools/invoke' ? answer(call) : { status: 404, body: { ok: false } };
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(out));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    answer(next: GatewayReply) {
      answer = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A gateway reply that accepts the spawn. */
export function accept(call: GatewayCall) {
  return {
    status: 200,
    body: {
      ok: true,
      result: {
        details: { status: 'accepted', childSessionKey: `agent:${String(call.body.args?.agentId)}:subagent:1` },
      },
    },
  };
}

/** A gateway reply of an agent the requester may not see. */
export function agentNotFound() {
  return {
    status: 200,
    body: { ok: true, result: { details: { status: 'forbidden', error: 'Agent not found: ghost' } } },
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text;
}
