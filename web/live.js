// The board's live state: a snapshot, then changes merged by sequence (docs/web-board.md, "Live updates").
// The browser's EventSource is the client: it reconnects on its own and sends the last event id.
import { useEffect, useReducer } from 'preact/hooks';

/** The statuses, each a column of the board. */
export const STATUSES = ['backlog', 'ready', 'in-progress', 'blocked', 'done', 'deadletter', 'cancelled'];

/** The state before the first snapshot: the cards by status (a map by id per column). */
export const EMPTY = { epoch: '', seq: -1, columns: emptyColumns(), counts: {}, connected: false };

/**
 * Applies one stream message. A snapshot replaces everything (a new daemon, or changes too old to
 * replay); a change applies only when its sequence is past the state's, so a batch seen twice or
 * late never brings a card back to a column it left, and a card lives in one column (it leaves its
 * old one when it lands). Only the columns a change touches are new objects: the others, unchanged,
 * are not drawn again.
 */
export function reduce(state, message) {
  if (message.type === 'connected') return { ...state, connected: message.value };
  if (message.type === 'snapshot') {
    const { epoch, seq, cards, counts } = message.data;
    const columns = emptyColumns();
    for (const card of cards) (columns[card.status] ??= new Map()).set(card.id, card);
    return { epoch, seq, counts, connected: true, columns };
  }
  if (message.type === 'more') {
    const edit = editColumns(state.columns);
    for (const card of message.cards) if (!edit.has(card.id)) edit.put(card);
    return { ...state, columns: edit.columns };
  }
  const change = message.data;
  if (change.seq <= state.seq) return state;
  const edit = editColumns(state.columns);
  for (const id of change.removed) edit.drop(id);
  for (const card of change.upserts) edit.put(card);
  return { ...state, seq: change.seq, counts: change.counts, columns: edit.columns };
}

/** The card of task `id` in the state, in whichever column it is. */
export function cardOf(state, id) {
  for (const column of Object.values(state.columns)) if (column.has(id)) return column.get(id);
  return undefined;
}

/** The board's state, live from GET /api/board/stream. */
export function useBoard() {
  const [state, dispatch] = useReducer(reduce, EMPTY);
  useEffect(() => {
    let source = null;
    let timer = 0;
    let last = '';
    const open = () => {
      // A new EventSource only when the browser gave up on the old one (an HTTP error, not a drop).
      source = new EventSource(`/api/board/stream${last ? `?last=${encodeURIComponent(last)}` : ''}`);
      source.addEventListener('open', () => dispatch({ type: 'connected', value: true }));
      source.addEventListener('snapshot', (event) => {
        last = event.lastEventId;
        dispatch({ type: 'snapshot', data: JSON.parse(event.data) });
      });
      source.addEventListener('change', (event) => {
        last = event.lastEventId;
        dispatch({ type: 'change', data: JSON.parse(event.data) });
      });
      source.addEventListener('error', () => {
        dispatch({ type: 'connected', value: false });
        if (source.readyState === EventSource.CLOSED) timer = setTimeout(open, 2000);
      });
    };
    open();
    return () => {
      clearTimeout(timer);
      source?.close();
    };
  }, []);
  return [state, dispatch];
}

// --- internal ---

function emptyColumns() {
  return Object.fromEntries(STATUSES.map((status) => [status, new Map()]));
}

/** Copy-on-write edits of the columns: a column is copied the first time an edit touches it. */
function editColumns(before) {
  const columns = { ...before };
  const copied = new Set();
  const column = (status) => {
    if (!copied.has(status)) {
      copied.add(status);
      columns[status] = new Map(columns[status] ?? []);
    }
    return columns[status];
  };
  const find = (id) => Object.keys(columns).find((status) => columns[status].has(id));
  const drop = (id) => {
    const status = find(id);
    if (status) column(status).delete(id);
  };
  return {
    columns,
    has: (id) => find(id) !== undefined,
    drop,
    put: (card) => {
      drop(card.id);
      return column(card.status).set(card.id, card);
    },
  };
}
