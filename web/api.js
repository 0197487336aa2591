// The page's calls to its own server: JSON reads, and POSTs carrying the token header (docs/web-board.md, "Security").

/** The value of `<meta name="svc-<name>">`, written by the server into the page shell. */
export function meta(name) {
  return document.querySelector(`meta[name="svc-${name}"]`)?.getAttribute('content') ?? '';
}

/** GET a JSON route; throws the server's error message. */
export async function getJson(path) {
  const res = await fetch(path, { credentials: 'same-origin' });
  return unwrap(res);
}

/** Runs a board action (`promote`, `cancel`, ...) through POST /api/action/<name>; throws the error the command line would print. */
export async function act(name, body) {
  const res = await fetch(`/api/action/${encodeURIComponent(name)}`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', 'x-svc-token': meta('token') },
    body: JSON.stringify(body),
  });
  return unwrap(res);
}

/**
 * Time left until an ISO time, as `4m 10s` (negative: `-1m 2s`), or '' without a time. Seconds show
 * only in the last SECONDS_SHOWN: a longer countdown changes its text once a minute, and a page
 * redraws (and the machine pays for a frame) only when a text changed.
 */
export function timeLeft(iso, now) {
  if (!iso) return '';
  const ms = Date.parse(iso) - now;
  const text = countdown(Math.abs(ms));
  return ms < 0 ? `-${text}` : text;
}

/** A countdown with this much left or more shows whole minutes. */
const SECONDS_SHOWN = 5 * 60_000;

/** `1h 5m`, `12m`, `4m 10s` or `40s` for `ms` (not negative). */
function countdown(ms) {
  const [h, m, s] = [Math.floor(ms / 3600_000), Math.floor((ms % 3600_000) / 60_000), Math.floor((ms % 60_000) / 1000)];
  if (h > 0) return `${h}h ${m}m`;
  if (ms >= SECONDS_SHOWN) return `${m}m`;
  return m > 0 ? `${m}m ${s}s` : `${s}s`;
}

async function unwrap(res) {
  const body = await res.json().catch(() => ({ ok: false, error: { message: `HTTP ${res.status}` } }));
  if (!res.ok || body.ok === false) {
    const error = body.error ?? {};
    throw new Error(`${error.message ?? `HTTP ${res.status}`}${error.hint ? ` ${error.hint}` : ''}`);
  }
  return body;
}
