// The task page: frontmatter, body (sanitised Markdown), links, gate history, timeline, live logs, actions.
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { act, getJson } from './api.js';
import { cardOf, useBoard } from './live.js';
import { renderMarkdown } from './markdown.js';
import { usageText } from './usage.js';

/** The page of one task (`/task/<id>`). */
export function TaskPage({ id, actions }) {
  const [detail, setDetail] = useState(null);
  const [error, setError] = useState('');
  const [acted, setActed] = useState(0);
  const [board] = useBoard();
  const card = cardOf(board, detail?.task.id ?? id);
  const stamp = card ? `${card.status}|${card.updatedAt}` : '';
  useEffect(() => {
    getJson(`/api/task/${encodeURIComponent(id)}`).then(
      (body) => {
        setDetail(body);
        setError('');
      },
      (err) => setError(err.message),
    );
  }, [id, stamp, acted]); // read again when the task's card changes and after each action (its events)
  if (!detail)
    return html`<main class="task"><nav><a href="/">board</a></nav>${error ? html`<p class="error" role="alert">${error}</p>` : html`<p>loading…</p>`}</main>`;
  const { task, status } = detail;
  return html`<main class="task" data-task=${task.id}>
    <nav><a href="/">board</a> · <a href="/agents">agents and scheduler</a></nav>
    <h1><span class="id">${task.id}</span> <span class="title">${task.title}</span></h1>
    <p>status <strong data-status=${status}>${status}</strong>${task.workspace?.path ? html` · workspace <code data-workspace>${task.workspace.path}</code> on branch <code>${task.workspace.branch}</code>` : ''}</p>
    ${detail.usage && html`<p data-usage>usage ${usageText(detail.usage)}</p>`}
    <${Actions} id=${task.id} status=${status} gated=${!!task.gate} gate=${task.gate?.current} priority=${task.priority} actions=${actions} onDone=${() => setActed((n) => n + 1)} />
    <table class="frontmatter"><tbody>${Object.entries(task)
      .filter(([key]) => key !== 'title')
      .map(
        ([key, value]) =>
          html`<tr><th>${key}</th><td>${typeof value === 'string' ? value : JSON.stringify(value)}</td></tr>`,
      )}</tbody></table>
    <section class="body" dangerouslySetInnerHTML=${{ __html: renderMarkdown(detail.body) }}></section>
    <section><h2>Depends on</h2>${links(detail.dependsOn)}<h2>Dependents</h2>${links(detail.dependents)}</section>
    ${detail.gateHistory.length > 0 && html`<section><h2>Gate history</h2><ol>${detail.gateHistory.map((event) => html`<li>${event.timestamp} ${event.actor}: ${JSON.stringify(event.payload)}</li>`)}</ol></section>`}
    <section class="timeline"><h2>Timeline</h2><ol>${detail.timeline.map((event) => html`<li data-event=${event.type}><time>${event.timestamp}</time> <strong>${event.type}</strong> by ${event.actor}${event.payload ? html` <code>${JSON.stringify(event.payload)}</code>` : ''}</li>`)}</ol></section>
    <${Logs} id=${task.id} />
  </main>`;
}

function links(list) {
  if (!list.length) return html`<p class="none">none</p>`;
  return html`<ul>${list.map((item) => html`<li><a href=${`/task/${encodeURIComponent(item.id)}`}>${item.id}</a> ${item.status ?? 'unknown'} ${item.title ?? ''}</li>`)}</ul>`;
}

const TERMINAL = ['done', 'cancelled'];

function Actions({ id, status, gated, gate, priority, actions, onDone }) {
  const [error, setError] = useState('');
  const [reason, setReason] = useState('');
  const run = (name, body = {}) =>
    act(name, { taskId: id, ...body }).then(
      () => {
        setError('');
        onDone();
      },
      (err) => setError(err.message),
    );
  const can = (name) => actions.includes(name);
  const live = !TERMINAL.includes(status); // a done or cancelled task takes no priority, approval or rejection
  return html`<section class="actions">
    ${status === 'backlog' && can('promote') && html`<button data-action="promote" onClick=${() => run('promote')}>promote</button>`}
    ${live && can('priority') && html`<select data-action="priority" value=${priority} onChange=${(e) => run('priority', { priority: e.currentTarget.value })}>${['low', 'normal', 'high', 'critical'].map((p) => html`<option>${p}</option>`)}</select>`}
    <input placeholder="reason" value=${reason} onInput=${(e) => setReason(e.currentTarget.value)} />
    ${['backlog', 'ready', 'in-progress'].includes(status) && can('block') && html`<button data-action="block" onClick=${() => run('block', { reason })}>block</button>`}
    ${status === 'blocked' && can('unblock') && html`<button data-action="unblock" onClick=${() => run('unblock')}>unblock</button>`}
    ${['backlog', 'ready', 'in-progress', 'blocked'].includes(status) && can('cancel') && html`<button data-action="cancel" onClick=${() => run('cancel', { reason: reason || 'cancelled on the web board' })}>cancel</button>`}
    ${status === 'deadletter' && can('resurrect') && html`<button data-action="resurrect" onClick=${() => run('resurrect')}>resurrect</button>`}
    ${live && gated && can('approve') && html`<button data-action="approve" onClick=${() => run('approve', { gate, note: reason })}>approve</button>`}
    ${live && gated && can('reject') && html`<button data-action="reject" onClick=${() => run('reject', { gate, note: reason })}>reject (the reason says what must change)</button>`}
    ${error && html`<p class="error" role="alert">${error}</p>`}
  </section>`;
}

/** The task's logs, followed live over GET /api/task/<id>/log. */
function Logs({ id }) {
  const [lines, setLines] = useState([]);
  const [source, setSource] = useState('');
  useEffect(() => {
    const events = new EventSource(`/api/task/${encodeURIComponent(id)}/log`);
    events.addEventListener('lines', (event) => {
      const batch = JSON.parse(event.data);
      setSource(batch.source);
      setLines((old) => [...old, ...batch.lines].slice(-2000));
    });
    return () => events.close();
  }, [id]);
  return html`<section class="logs"><h2>Logs ${source === 'agents' ? '(agent and daemon log lines naming the task)' : source === 'runs' ? '(run logs)' : ''}</h2>
    <pre data-logs>${lines.map((item) => `${item.file}: ${item.line}\n`).join('')}</pre></section>`;
}
