import { REQUEST_ID_HEADER, RUN_SESSION_HEADER } from '../../core/request-id.js';

// The one place the daemon's routes are spelled (docs/daemon.md, "Routes"): the socket's route
// table, the health port's, the hook names of `POST /v1/event/:name` and the headers clients send.
// The daemon registers these routes, its clients build their paths here, and the hint of a request
// that matches none is written from this table.

/** An HTTP method the daemon's routes take. */
export type RouteMethod = 'GET' | 'POST';

/** One route: its method, its path (`:name` a parameter), and what the routes' help shows of it. */
export interface RouteSpec {
  method: RouteMethod;
  path: string;
  /** The query keys the help lists (`?after=&waitMs=`). */
  query?: readonly string[];
  /** The values a `:parameter` takes, when they are a closed list (the help lists them). */
  choices?: readonly string[];
}

/** The plugin lifecycle events accepted on `POST /v1/event/<name>`. */
export const HOOK_NAMES = ['session-end', 'agent-end', 'before-compaction', 'message-received'] as const;
/** One of `HOOK_NAMES`. */
export type HookName = (typeof HOOK_NAMES)[number];

/** What `POST /v1/notify/<action>` does: make deliveries due now, or send a sample (docs/notifications.md). */
export const NOTIFY_ACTIONS = ['retry', 'test'] as const;

/** The headers of the contract: the plugin's id, the agent run's session, a call's request id. */
export const HEADERS = { plugin: 'x-svc-plugin', session: RUN_SESSION_HEADER, requestId: REQUEST_ID_HEADER } as const;

/** The socket's routes, in the order the help lists them. */
export const ROUTES = {
  healthz: { method: 'GET', path: '/healthz' },
  status: { method: 'GET', path: '/status' },
  metrics: { method: 'GET', path: '/metrics' },
  toolInvoke: { method: 'POST', path: '/v1/tool/invoke' },
  toolBatch: { method: 'POST', path: '/v1/tool/batch' },
  event: { method: 'POST', path: '/v1/event/:name', choices: HOOK_NAMES },
  spawnWait: { method: 'GET', path: '/v1/spawns/wait' },
  spawnResult: { method: 'POST', path: '/v1/spawns/:id/result' },
  spawnStop: { method: 'GET', path: '/v1/spawns/:id/stop' },
  tasks: {
    method: 'GET',
    path: '/v1/tasks',
    query: ['status', 'statuses', 'tags', 'project', 'team', 'priority', 'parent', 'since', 'text'],
  },
  taskChanges: { method: 'GET', path: '/v1/tasks/changes', query: ['after', 'waitMs'] },
  schedulerTick: { method: 'POST', path: '/v1/scheduler/tick' },
  schedulerPlan: { method: 'GET', path: '/v1/scheduler/plan' },
  web: { method: 'POST', path: '/v1/web' },
  notify: { method: 'POST', path: '/v1/notify/:action', choices: NOTIFY_ACTIONS },
} as const satisfies Record<string, RouteSpec>;

/** The name of a socket route (`ROUTES`). */
export type RouteName = keyof typeof ROUTES;

/** The health port's routes (TCP on 127.0.0.1, only when configured); `/metrics` only when served. */
export const HEALTH_PORT_ROUTES = {
  health: { method: 'GET', path: '/health' },
  metrics: ROUTES.metrics,
} as const satisfies Record<string, RouteSpec>;

/** `GET http://<host>:<port>/health`: the health port's URL. */
export function healthUrl(host: string, port: number): string {
  return `http://${host}:${port}${HEALTH_PORT_ROUTES.health.path}`;
}

/** `POST /v1/event/<name>`. */
export function eventPath(name: HookName): string {
  return `/v1/event/${encodeURIComponent(name)}`;
}

/** `POST /v1/notify/<action>`. */
export function notifyPath(action: (typeof NOTIFY_ACTIONS)[number]): string {
  return `/v1/notify/${action}`;
}

/** `POST /v1/spawns/<id>/result`. */
export function spawnResultPath(id: string): string {
  return `/v1/spawns/${encodeURIComponent(id)}/result`;
}

/** `GET /v1/spawns/<id>/stop`. */
export function spawnStopPath(id: string): string {
  return `/v1/spawns/${encodeURIComponent(id)}/stop`;
}

/** `GET /v1/tasks`, with the query when it has any key. */
export function tasksPath(query: URLSearchParams): string {
  return query.size ? `${ROUTES.tasks.path}?${query}` : ROUTES.tasks.path;
}

/** `GET /v1/tasks/changes?after=<n>&waitMs=<ms>`. */
export function taskChangesPath(after: number, waitMs: number): string {
  return `${ROUTES.taskChanges.path}?after=${after}&waitMs=${waitMs}`;
}

/** `GET /metrics`, or its JSON form (`?format=json`). */
export function metricsPath(format: 'text' | 'json' = 'text'): string {
  return format === 'json' ? `${ROUTES.metrics.path}?format=json` : ROUTES.metrics.path;
}

/** `GET /v1/tasks`: a route's method and path as errors and logs name it. */
export function toRouteLabel(route: RouteSpec): string {
  return `${route.method} ${route.path}`;
}

/** The routes' help, one `METHOD /path` each (`{id}` for a parameter, the choices of a closed one, the query keys). */
export function describeRoutes(routes: readonly RouteSpec[] = Object.values(ROUTES)): string {
  return routes.map(describeRoute).join(', ');
}

// --- internal ---

function describeRoute(route: RouteSpec): string {
  const path = route.path.replace(
    /:(\w+)/g,
    (_match, name: string) => `{${route.choices ? route.choices.join('|') : name}}`,
  );
  const query = route.query ? `?${route.query.map((key) => `${key}=`).join('&')}` : '';
  return `${route.method} ${path}${query}`;
}
