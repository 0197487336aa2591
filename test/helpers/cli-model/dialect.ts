import type { ServerResponse } from 'node:http';
import type { Reply, ScriptedRequest, ScriptedUsage } from './server.js';

export type DialectName = 'anthropic' | 'responses' | 'gemini';

/** One API a CLI speaks: which requests are its, how a main request reads, how an answer is streamed. */
export interface Dialect {
  name: DialectName;
  matches(method: string, path: string): boolean;
  /** A main request of the conversation (svc's tools offered), read; null for a side request. */
  read(path: string, body: unknown): ScriptedRequest | null;
  /** Answers a side request (a preconnect, a title, a router call) plainly. */
  side(res: ServerResponse, path: string, body: unknown): void;
  /** Streams the reply (a tool call or a text) with the usage, as the API does over SSE. */
  reply(
    res: ServerResponse,
    answer: { request: ScriptedRequest; reply: Exclude<Reply, { kind: 'error' | 'hang' }>; usage: ScriptedUsage },
  ): void;
  /** The API's error body for a status. */
  error(status: number, message: string): unknown;
}
