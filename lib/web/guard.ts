import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestUrl } from '../daemon/http/exchange.js';

/** The Content-Security-Policy of every answer: the page's own scripts and styles, nothing inline, no frames. */
export const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; " +
  "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The actor of the board's actions when `svc web --as` names none. */
export const DEFAULT_ACTOR = 'operator';

/** How a request stands: who acts, or why it is refused. */
export type Admission =
  | { ok: true; actor: string; setCookies?: string[]; redirect?: string }
  | { ok: false; status: 400 | 401 | 403 | 421; message: string; hint: string };

/** The security checks of docs/web-board.md, "Security", for a board on `port` with `token`. */
export interface Guard {
  /**
   * Host header, then token (cookie, `x-svc-token` header, `Authorization: Bearer`, or `?token=` once on a page load).
   */
  admit(req: IncomingMessage): Admission;
  /** POSTs also need the token in the `x-svc-token` header (which only the board's own page can read). */
  admitPost(req: IncomingMessage): Admission;
}

/** The guard of a board on `port` with `token`. */
export function createGuard(port: number, token: string): Guard {
  const cookie = `svc_web_${port}`;
  const asCookie = `svc_web_as_${port}`;
  const hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const admit = (req: IncomingMessage): Admission => {
    const host = String(req.headers.host ?? '').toLowerCase();
    if (!hosts.has(host))
      return refuse(
        421,
        `The Host header names ${JSON.stringify(host)}; this board ` +
          `answers only to 127.0.0.1:${port} or localhost:${port}.`,
        `Open http://127.0.0.1:${port}/ (a page under another name is refused: DNS rebinding).`,
      );
    const url = requestUrl(req);
    if (!url)
      return refuse(
        400,
        `The request target ${JSON.stringify(String(req.url).slice(0, 200))} is not a path of this board.`,
        `Open http://127.0.0.1:${port}/.`,
      );
    const cookies = parseCookies(req.headers.cookie);
    const actor = toActor(cookies[asCookie]);
    const given = url.searchParams.get('token');
    if (req.method === 'GET' && same(given, token)) {
      // the URL of `svc web`: into the cookie, then out of the address bar
      const as = toActor(url.searchParams.get('as') ?? undefined);
      url.searchParams.delete('token');
      url.searchParams.delete('as');
      const flags = 'HttpOnly; SameSite=Strict; Path=/';
      return {
        ok: true,
        actor: as,
        setCookies: [`${cookie}=${token}; ${flags}`, `${asCookie}=${as}; ${flags}`],
        redirect: `${url.pathname}${url.search}`,
      };
    }
    if (same(cookies[cookie], token) || same(header(req, 'x-svc-token'), token) || same(bearer(req), token))
      return { ok: true, actor };
    return refuse(
      401,
      'This request has no valid token of the svc web board.',
      'Open the URL that `svc web` prints (it carries the token once; the page keeps it in a cookie).',
    );
  };
  return {
    admit,
    admitPost(req) {
      const admitted = admit(req);
      if (!admitted.ok) return admitted;
      if (same(header(req, 'x-svc-token'), token)) return admitted;
      return refuse(
        401,
        'A change needs the token in the x-svc-token header; this POST has none that matches.',
        'Use the buttons of the board page; nothing was changed.',
      );
    },
  };
}

/** Sends the headers every answer carries: CSP, no sniffing, no referrer, no framing, no caching. */
export function setSecurityHeaders(res: ServerResponse): void {
  res.setHeader('content-security-policy', CSP);
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('referrer-policy', 'no-referrer');
  res.setHeader('x-frame-options', 'DENY');
  res.setHeader('cache-control', 'no-store');
}

// --- internal ---

function refuse(status: 400 | 401 | 403 | 421, message: string, hint: string): Admission {
  return { ok: false, status, message, hint };
}

/**
 * True when `given` is the token, in a time that tells nothing of either: their digests are
 * compared, which have one length whatever was sent (bytes, not characters: `é` is two).
 */
function same(given: string | undefined | null, token: string): boolean {
  if (!given) return false;
  return timingSafeEqual(digest(given), digest(token));
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The token of an `Authorization: Bearer <token>` header (how a metrics scraper sends it). */
function bearer(req: IncomingMessage): string | undefined {
  return /^Bearer (\S+)$/i.exec(header(req, 'authorization') ?? '')?.[1];
}

function parseCookies(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (text ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0) out[part.slice(0, at).trim()] = part.slice(at + 1).trim();
  }
  return out;
}

function toActor(value: string | undefined): string {
  return value && /^[A-Za-z0-9._@-]{1,64}$/.test(value) ? value : DEFAULT_ACTOR;
}
