// One task card of the board, with its quick actions.
import { html } from 'htm/preact';
import { Component } from 'preact';
import { useState } from 'preact/hooks';
import { act, timeLeft } from './api.js';

const ACTIVE = ['backlog', 'ready', 'in-progress', 'blocked'];
/** Holds the card already shows in its own way: a backoff (retry in), dependencies (waits on), a not-before time. */
const HOLDS_SHOWN_ELSEWHERE = ['backoff', 'dependencies', 'not-before'];

/** Tells each card whether it is on screen (or near it): a countdown off screen does not tick. */
const onScreen =
  typeof IntersectionObserver === 'function'
    ? new IntersectionObserver(
        (entries) => entries.forEach((entry) => entry.target.svcCard?.seen(entry.isIntersecting)),
        { rootMargin: '200px' },
      )
    : null;

/** The cards whose countdown is on screen, drawn again once a second by one clock (none: no clock). */
const ticking = new Set();
let clock = 0;

function setTicking(card, on) {
  if (on) ticking.add(card);
  else ticking.delete(card);
  if (ticking.size && !clock) clock = setInterval(() => ticking.forEach((each) => each.forceUpdate()), 1000);
  if (!ticking.size && clock) {
    clearInterval(clock);
    clock = 0;
  }
}

/**
 * A card that draws again only when its task or the actions changed, or, once a second, when it
 * shows a countdown (lease, backoff) on screen: a board of a thousand cards draws only the few
 * countdowns in sight each second, never its columns.
 */
export class Card extends Component {
  componentDidMount() {
    if (onScreen && this.base) {
      this.base.svcCard = this;
      onScreen.observe(this.base);
    }
    this.updateTicking();
  }

  componentDidUpdate() {
    this.updateTicking();
  }

  componentWillUnmount() {
    if (this.base) onScreen?.unobserve(this.base);
    setTicking(this, false);
  }

  updateTicking() {
    const { card } = this.props;
    setTicking(
      this,
      this.visible !== false && !!(card.leaseExpiresAt || card.nextAttemptAt || card.notBefore || card.dueAt),
    );
  }

  seen(visible) {
    const was = this.visible !== false;
    this.visible = visible;
    this.updateTicking();
    if (visible && !was) this.forceUpdate(); // its countdown, stale while out of sight
  }

  shouldComponentUpdate(next) {
    return next.card !== this.props.card || next.actions !== this.props.actions;
  }

  render(props) {
    return html`<${CardView} ...${props} now=${Date.now()} />`;
  }
}

/**
 * A card: id, title, priority, agent, gate, lease time left, backoff, why the scheduler holds it,
 * its not-before and due times, open dependencies, SLA, overdue and deadletter marks.
 */
function CardView({ card, now, actions }) {
  const [error, setError] = useState('');
  const run = (name, body = {}) =>
    act(name, { taskId: card.id, ...body }).then(
      () => setError(''),
      (err) => setError(err.message),
    );
  const can = (name) => actions.includes(name);
  return html`<article class="card prio-${card.priority}" data-card=${card.id} data-status=${card.status}>
    <header><a class="id" href=${`/task/${encodeURIComponent(card.id)}`}>${card.id}</a><span class="prio">${card.priority}</span></header>
    <div class="title">${card.title}</div>
    <div class="facts">
      ${card.agent && html`<span class="agent">@${card.agent}</span>`}
      ${card.gate && html`<span class="gate">gate ${card.gate}</span>`}
      ${card.leaseExpiresAt && html`<span class="lease">lease ${timeLeft(card.leaseExpiresAt, now)}</span>`}
      ${card.nextAttemptAt && html`<span class="backoff">retry in ${timeLeft(card.nextAttemptAt, now)}</span>`}
      ${card.hold && !HOLDS_SHOWN_ELSEWHERE.includes(card.hold.reason) && html`<span class="hold" data-hold=${card.hold.reason} title=${card.hold.detail}>held: ${card.hold.reason} (${card.hold.detail})</span>`}
      ${card.notBefore && Date.parse(card.notBefore) > now && html`<span class="not-before" title=${card.notBefore}>not before ${card.notBefore.slice(0, 16).replace('T', ' ')} UTC (in ${timeLeft(card.notBefore, now)})</span>`}
      ${card.dueAt && html`<span class="due" title=${card.dueAt}>due ${Date.parse(card.dueAt) > now ? `in ${timeLeft(card.dueAt, now)}` : `${timeLeft(card.dueAt, now).slice(1)} ago`}</span>`}
      ${card.openDeps.length > 0 && html`<span class="deps">waits on ${card.openDeps.join(', ')}</span>`}
      ${card.dispatchFailures > 0 && html`<span class="fail">${card.dispatchFailures} failed</span>`}
      ${card.sla && html`<span class="mark sla">SLA</span>`}
      ${card.dueAt && Date.parse(card.dueAt) <= now && html`<span class="mark overdue">overdue</span>`}
      ${card.status === 'deadletter' && html`<span class="mark dead">deadletter</span>`}
    </div>
    <footer>
      ${card.status === 'backlog' && can('promote') && html`<button data-action="promote" onClick=${() => run('promote')}>promote</button>`}
      ${card.gate && ['ready', 'blocked'].includes(card.status) && can('approve') && html`<button data-action="approve" onClick=${() => run('approve', { gate: card.gate })}>approve</button>`}
      ${ACTIVE.includes(card.status) && can('cancel') && html`<button data-action="cancel" onClick=${() => run('cancel', { reason: 'cancelled on the web board' })}>cancel</button>`}
      ${card.status === 'deadletter' && can('resurrect') && html`<button data-action="resurrect" onClick=${() => run('resurrect')}>resurrect</button>`}
    </footer>
    ${error && html`<p class="error" role="alert">${error}</p>`}
  </article>`;
}
