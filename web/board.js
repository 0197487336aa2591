// The board: a column per status with counts, filters kept in the URL, live over the event stream.
import { html } from 'htm/preact';
import { Component } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { act, getJson } from './api.js';
import { Card } from './card.js';
import { STATUSES, useBoard } from './live.js';

const TERMINAL = ['done', 'cancelled'];
const FILTERS = ['agent', 'team', 'priority', 'tag', 'text'];
const PAGE = 50;

/** The board page. */
export function Board({ actions }) {
  const [state, dispatch] = useBoard();
  const [filters, setFilters] = useState(() =>
    Object.fromEntries(FILTERS.map((key) => [key, new URLSearchParams(location.search).get(key) ?? ''])),
  );
  const [shown, setShown] = useState({ done: PAGE, cancelled: PAGE });
  useEffect(() => {
    const query = new URLSearchParams(Object.entries(filters).filter(([, value]) => value));
    history.replaceState(null, '', `${location.pathname}${query.size ? `?${query}` : ''}`);
  }, [filters]);
  const more = async (status) => {
    const { cards } = await getJson(`/api/tasks?status=${status}&offset=${shown[status]}&limit=${PAGE}`);
    dispatch({ type: 'more', cards });
    setShown({ ...shown, [status]: shown[status] + PAGE });
  };
  const moreRef = useRef(more);
  moreRef.current = more;
  const onMore = useCallback((status) => moreRef.current(status), []);
  return html`<main class="board">
    <nav><strong>svc</strong> board · <a href="/agents">agents and scheduler</a>
      <span class=${`live ${state.connected ? 'on' : 'off'}`} data-live=${state.connected ? 'on' : 'off'}>${state.connected ? 'live' : 'reconnecting'}</span></nav>
    <section class="filters">${FILTERS.map((key) => html`<label>${key} <input name=${key} value=${filters[key]} onInput=${(e) => setFilters({ ...filters, [key]: e.currentTarget.value })} /></label>`)}</section>
    ${actions.includes('create') && html`<${CreateForm} />`}
    <div class="columns">${STATUSES.map(
      (
        status,
      ) => html`<${Column} key=${status} status=${status} cards=${state.columns[status]} total=${state.counts[status] ?? 0}
      filters=${filters} shown=${shown[status]} actions=${actions} onMore=${onMore} />`,
    )}</div>
  </main>`;
}

/**
 * One status column. It draws again only when its cards, count, filters or actions changed: a
 * change in one column leaves the others alone (the cards' countdowns tick on their own, card.js).
 */
class Column extends Component {
  shouldComponentUpdate(next) {
    const { cards, total, filters, shown, actions } = this.props;
    return (
      next.cards !== cards ||
      next.total !== total ||
      next.filters !== filters ||
      next.shown !== shown ||
      next.actions !== actions
    );
  }

  render({ status, cards, total, filters, shown, actions, onMore }) {
    let list = [...cards.values()].filter((card) => matches(card, filters)).sort(order);
    if (TERMINAL.includes(status) && list.length > shown) list = list.slice(0, shown);
    return html`<section class="column" data-column=${status}>
      <h2>${status} <span class="count" data-count=${status}>${total}</span></h2>
      ${list.map((card) => html`<${Card} key=${card.id} card=${card} actions=${actions} />`)}
      ${TERMINAL.includes(status) && total > shown && html`<button class="more" data-more=${status} onClick=${() => onMore(status)}>more (${total - shown})</button>`}
    </section>`;
  }
}

function CreateForm() {
  const [error, setError] = useState('');
  const submit = async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = Object.fromEntries(new FormData(form));
    try {
      await act('create', {
        title: data.title,
        body: data.body || undefined,
        priority: data.priority || undefined,
        agent: data.agent || undefined,
      });
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
