// The board's live state: a snapshot, then changes merged by sequence (docs/web-board.md, "Live updates").
// The browser's EventSource is the client: it reconnects on its own and sends the last event id.
import { useEffect, useReducer } from 'preact/hooks';

/** The state before the first snapshot. */
export const EMPTY = { epoch: '', seq: -1, cards: new Map(), counts: {}, connected: false };

/**
 * Applies one stream message. A snapshot replaces everything (a new daemon, or changes too old to
 * replay); a change applies only when its sequence is past the state's, so a batch seen twice or
 * late never brings a card back to a column it left, and a card lives in one column (a map by id).
 */
export function reduce(state, message) {
  if (message.type === 'connected') return { ...state, connected: message.value };
  if (message.type === 'snapshot') {
    const { epoch, seq, cards, counts } = message.data;
    return { epoch, seq, counts, connected: true, cards: new Map(cards.map((card) => [card.id, card])) };
  }
  if (message.type === 'more') {
    const cards = new Map(state.cards);
    for (const card of message.cards) if (!cards.has(card.id)) cards.set(card.id, card);
    return { ...state, cards };
  }
  const change = message.data;
  if (change.seq <= state.seq) return state;
  const cards = new Map(state.cards);
  for (const id of change.removed) cards.delete(id);
  for (const card of change.upserts) cards.set(card.id, card);
  return { ...state, seq: change.seq, counts: change.counts, cards };
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
      source.addEventListener('snapshot', (event) => ((last = event.lastEventId), dispatch({ type: 'snapshot', data: JSON.parse(event.data) })));
      source.addEventListener('change', (event) => ((last = event.lastEventId), dispatch({ type: 'change', data: JSON.parse(event.data) })));
      source.addEventListener('error', () => {
        dispatch({ type: 'connected', value: false });
        if (source.readyState === EventSource.CLOSED) timer = setTimeout(open, 2000);
      });
    };
    open();
    return () => (clearTimeout(timer), source?.close());
  }, []);
  return [state, dispatch];
}
