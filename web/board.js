// The board: a column per status with counts, filters kept in the URL, live over the event stream.
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { act, getJson } from './api.js';
import { Card } from './card.js';
import { useBoard } from './live.js';

const STATUSES = ['backlog', 'ready', 'in-progress', 'blocked', 'done', 'deadletter', 'cancelled'];
const TERMINAL = ['done', 'cancelled'];
const FILTERS = ['agent', 'team', 'priority', 'tag', 'text'];
const PAGE = 50;

/** The board page. */
export function Board({ actions }) {
  const [state, dispatch] = useBoard();
  const [filters, setFilters] = useState(() => Object.fromEntries(FILTERS.map((key) => [key, new URLSearchParams(location.search).get(key) ?? ''])));
  const [shown, setShown] = useState({ done: PAGE, cancelled: PAGE });
  const now = useNow();
  useEffect(() => {
    const query = new URLSearchParams(Object.entries(filters).filter(([, value]) => value));
    history.replaceState(null, '', `${location.pathname}${query.size ? `?${query}` : ''}`);
  }, [filters]);
  const more = async (status) => {
    const { cards } = await getJson(`/api/tasks?status=${status}&offset=${shown[status]}&limit=${PAGE}`);
    dispatch({ type: 'more', cards });
    setShown({ ...shown, [status]: shown[status] + PAGE });
  };
  const cards = [...state.cards.values()].filter((card) => matches(card, filters));
  return html`<main class="board">
    <nav><strong>svc</strong> board · <a href="/agents">agents and scheduler</a>
      <span class=${`live ${state.connected ? 'on' : 'off'}`} data-live=${state.connected ? 'on' : 'off'}>${state.connected ? 'live' : 'reconnecting'}</span></nav>
    <section class="filters">${FILTERS.map((key) => html`<label>${key} <input name=${key} value=${filters[key]} onInput=${(e) => setFilters({ ...filters, [key]: e.currentTarget.value })} /></label>`)}</section>
    ${actions.includes('create') && html`<${CreateForm} />`}
    <div class="columns">${STATUSES.map((status) => {
      let list = cards.filter((card) => card.status === status).sort(order);
      const total = state.counts[status] ?? 0;
      const limited = TERMINAL.includes(status) && list.length > shown[status];
      if (limited) list = list.slice(0, shown[status]);
      return html`<section class="column" data-column=${status}>
        <h2>${status} <span class="count" data-count=${status}>${total}</span></h2>
        ${list.map((card) => html`<${Card} key=${card.id} card=${card} now=${now} actions=${actions} />`)}
        ${TERMINAL.includes(status) && total > shown[status] && html`<button class="more" data-more=${status} onClick=${() => more(status)}>more (${total - shown[status]})</button>`}
      </section>`;
    })}</div>
  </main>`;
}

function CreateForm() {
  const [error, setError] = useState('');
  const submit = async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = Object.fromEntries(new FormData(form));
    try {
      await act('create', { title: data.title, body: data.body || undefined, priority: data.priority || undefined, agent: data.agent || undefined });
      form.reset();
      setError('');
    } catch (err) {
      setError(err.message);
    }
  };
  return html`<form class="create" onSubmit=${submit}>
    <input name="title" placeholder="New task title" required />
    <input name="agent" placeholder="agent" />
    <select name="priority"><option value="">priority</option>${['low', 'normal', 'high', 'critical'].map((p) => html`<option>${p}</option>`)}</select>
    <button type="submit">create</button>${error && html`<span class="error" role="alert">${error}</span>`}
  </form>`;
}

function matches(card, filters) {
  if (filters.agent && card.agent !== filters.agent) return false;
  if (filters.team && card.team !== filters.team) return false;
  if (filters.priority && card.priority !== filters.priority) return false;
  if (filters.tag && !card.tags.includes(filters.tag)) return false;
  const text = filters.text.toLowerCase();
  return !text || card.title.toLowerCase().includes(text) || card.id.toLowerCase().includes(text);
}

const RANK = { critical: 0, high: 1, normal: 2, low: 3 };

function order(a, b) {
  if (TERMINAL.includes(a.status)) return a.updatedAt < b.updatedAt ? 1 : -1;
  return (RANK[a.priority] ?? 9) - (RANK[b.priority] ?? 9) || (a.id < b.id ? -1 : 1);
}

/** The time, ticking every second (lease and backoff countdowns). */
function useNow() {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}
