import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { SvcError } from '../core/errors.js';
import { findPackageRoot } from '../core/package-root.js';

/** The page's files, built into `dist/web/page/` by `npm run build` (scripts/bundle-web.mjs). */
const ASSETS: Record<string, string> = {
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
};

/** The views of the one page: the board, a task, the agents and the scheduler. */
export type View = 'board' | 'task' | 'agents';

/**
 * Sends the page shell: no inline script or style (the CSP forbids both); the view, the task id and
 * the token for the `x-svc-token` header of POSTs ride in `<meta>` tags the page's script reads.
 */
export function sendPage(
  res: ServerResponse,
  view: View,
  values: { token: string; actor: string; taskId?: string },
): void {
  const meta = (name: string, value: string) => `<meta name="${name}" content="${escapeHtml(value)}">`;
  const html =
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
    `<title>svc board</title>${meta('svc-view', view)}${meta('svc-token', values.token)}` +
    `${meta('svc-actor', values.actor)}${meta('svc-task', values.taskId ?? '')}\n` +
    '<link rel="icon" href="/favicon.svg" type="image/svg+xml"><link rel="stylesheet" href="/assets/app.css">' +
    '</head><body><div id="app"></div><script type="module" src="/assets/app.js"></script></body></html>';
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(html) });
  res.end(html);
}

/** Sends `dist/web/page/<name>` (read once, kept in memory). */
export function sendAsset(res: ServerResponse, name: string): void {
  const type = ASSETS[name];
  if (!type)
    throw new SvcError('not_found', `No asset ${JSON.stringify(name)}.`, `Assets: ${Object.keys(ASSETS).join(', ')}.`);
  const body = readAsset(name);
  res.writeHead(200, { 'content-type': type, 'content-length': body.length });
  res.end(body);
}

/**
 * The board's icon (`/favicon.svg`, and `/favicon.ico` for a browser that asks for that name): a page load asks for
 * nothing that is missing.
 */
export function sendIcon(res: ServerResponse): void {
  res.writeHead(200, {
    'content-type': 'image/svg+xml',
    'content-length': Buffer.byteLength(ICON),
    'cache-control': 'max-age=86400',
  });
  res.end(ICON);
}

// --- internal ---

const ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" ' +
  'fill="#2f5d8a"/><path d="M3 4h3M3 8h3M3 12h3M8 4h5M8 8h5" stroke="#fff" stroke-width="2"/></svg>';

const cache = new Map<string, Buffer>();

function readAsset(name: string): Buffer {
  let body = cache.get(name);
  if (body) return body;
  const file = join(findPackageRoot(), 'dist', 'web', 'page', name);
  try {
    body = readFileSync(file);
  } catch (err) {
    throw new SvcError('unavailable', `The web board's ${name} is missing (${file}).`, {
      hint: 'Build the package: `npm run build`.',
      cause: err,
    });
  }
  cache.set(name, body);
  return body;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
