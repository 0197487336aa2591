// The agents and scheduler page: agents with their runs, the daemon's mode and plugins, why ready tasks wait, murmur, SLA.
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { getJson, timeLeft } from './api.js';
import { useBoard } from './live.js';
import { costText } from './usage.js';

/** The agents page (`/agents`), read again whenever the board changes. */
export function AgentsPage() {
  const [page, setPage] = useState(null);
  const [error, setError] = useState('');
  const [board] = useBoard();
  useEffect(() => {
    getJson('/api/agents').then(
      (body) => {
        setPage(body);
        setError('');
      },
      (err) => setError(err.message),
    );
  }, [board.seq, board.epoch]);
  const nav = html`<nav><a href="/">board</a> · agents and scheduler</nav>`;
  if (!page)
    return html`<main class="agents">${nav}${error ? html`<p class="error">${error}</p>` : html`<p>loading…</p>`}</main>`;
  const now = Date.now();
  return html`<main class="agents">${nav}
    <section><h2>Daemon</h2><p>mode <strong data-mode>${page.daemon.mode}</strong> · plugins ${page.daemon.plugins.length ? page.daemon.plugins.map((p) => p.id ?? JSON.stringify(p)).join(', ') : 'none attached'} · version ${page.daemon.version} · pid ${page.daemon.pid}</p></section>
    <section><h2>Agents</h2><table><thead><tr><th>agent</th><th>state</th><th>active runs</th><th>last dispatch</th><th>failures in a row</th><th>usage today</th><th>usage, 30 days</th></tr></thead><tbody>
      ${page.agents.map(
        (
          agent,
        ) => html`<tr data-agent=${agent.id}><td>${agent.name} (${agent.id})</td><td>${agent.paused ? 'paused' : agent.active ? 'active' : 'inactive'}</td>
        <td>${agent.runs.map((run) => html`<div><a href=${`/task/${encodeURIComponent(run.taskId)}`}>${run.taskId}</a> for ${Math.round(run.sinceMs / 1000)}s${run.leaseExpiresAt ? `, lease ${timeLeft(run.leaseExpiresAt, now)}` : ''}</div>`)}</td>
        <td>${agent.lastDispatchAt ?? '-'}</td><td>${agent.failuresInRow}</td>
        <td data-usage="today">${usageCell(agent.usage.today)}</td><td data-usage="30d">${usageCell(agent.usage.last30Days)}</td></tr>`,
      )}
    </tbody></table></section>
    <section><h2>Scheduler plan (why each ready task waits)</h2><ul data-plan>${page.plan.map((action) => html`<li>${action.kind} ${action.taskId ?? ''} ${action.agent ?? ''} ${action.reason ?? ''} ${action.detail ?? ''}</li>`)}</ul></section>
    <section><h2>Murmur</h2>${page.murmur.length ? html`<ul>${page.murmur.map((team) => html`<li>${team.team}: last review ${team.state.lastReviewAt ?? 'never'}, ${team.state.completionsSinceLastReview} completions and ${team.state.failuresSinceLastReview} failures since${team.state.currentReviewTaskId ? `, reviewing in ${team.state.currentReviewTaskId}` : ''}</li>`)}</ul>` : html`<p>no team has murmur</p>`}</section>
    <section><h2>Recent SLA violations</h2>${page.slaViolations.length ? html`<ul>${page.slaViolations.map((event) => html`<li>${event.timestamp} ${event.taskId} ${JSON.stringify(event.payload)}</li>`)}</ul>` : html`<p>none</p>`}</section>
  </main>`;
}

/** `3 runs, 12,000 tokens, $0.42`, or `-` for an agent without runs. */
function usageCell(usage) {
  if (!usage.runs) return '-';
  const tokens = usage.inputTokens + usage.outputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
  return `${usage.runs} run${usage.runs === 1 ? '' : 's'}, ${tokens.toLocaleString('en-US')} tokens, ${costText(usage)}`;
}
