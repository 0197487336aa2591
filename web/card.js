// One task card of the board, with its quick actions.
import { html } from 'htm/preact';
import { Component } from 'preact';
import { useState } from 'preact/hooks';
import { act, timeLeft } from './api.js';

const ACTIVE = ['backlog', 'ready', 'in-progress', 'blocked'];

/** Tells each card whether it is on screen (or near it): a countdown off screen does not tick. */
const onScreen = typeof IntersectionObserver === 'function'
  ? new IntersectionObserver((entries) => entries.forEach((entry) => entry.target.svcCard?.seen(entry.isIntersecting)), { rootMargin: '200px' })
  : null;

/**
 * A card that draws again only when its task changed, the actions changed, or it shows a countdown
 * (lease, backoff), is on screen and the clock ticked: a board of a thousand cards does not redraw
 * them all each second, nor the hundreds of countdowns scrolled out of sight.
 */
export class Card extends Component {
  componentDidMount() {
    if (!onScreen || !this.base) return;
    this.base.svcCard = this;
    onScreen.observe(this.base);
  }

  componentWillUnmount() {
    if (this.base) onScreen?.unobserve(this.base);
  }

  seen(visible) {
    const was = this.visible !== false;
    this.visible = visible;
    if (visible && !was) this.forceUpdate(); // its countdown, stale while out of sight
  }

  shouldComponentUpdate(next) {
    const { card, now, actions } = this.props;
    return next.card !== card || next.actions !== actions || (next.now !== now && this.visible !== false && !!(card.leaseExpiresAt || card.nextAttemptAt));
  }

  render(props) {
    return html`<${CardView} ...${props} />`;
  }
}

/** A card: id, title, priority, agent, gate, lease time left, backoff, open dependencies, SLA and deadletter marks. */
function CardView({ card, now, actions }) {
  const [error, setError] = useState('');
  const run = (name, body = {}) => act(name, { taskId: card.id, ...body }).then(() => setError(''), (err) => setError(err.message));
  const can = (name) => actions.includes(name);
  return html`<article class="card prio-${card.priority}" data-card=${card.id} data-status=${card.status}>
    <header><a class="id" href=${`/task/${encodeURIComponent(card.id)}`}>${card.id}</a><span class="prio">${card.priority}</span></header>
    <div class="title">${card.title}</div>
    <div class="facts">
      ${card.agent && html`<span class="agent">@${card.agent}</span>`}
      ${card.gate && html`<span class="gate">gate ${card.gate}</span>`}
      ${card.leaseExpiresAt && html`<span class="lease">lease ${timeLeft(card.leaseExpiresAt, now)}</span>`}
      ${card.nextAttemptAt && html`<span class="backoff">retry in ${timeLeft(card.nextAttemptAt, now)}</span>`}
      ${card.openDeps.length > 0 && html`<span class="deps">waits on ${card.openDeps.join(', ')}</span>`}
      ${card.dispatchFailures > 0 && html`<span class="fail">${card.dispatchFailures} failed</span>`}
      ${card.sla && html`<span class="mark sla">SLA</span>`}
      ${card.status === 'deadletter' && html`<span class="mark dead">deadletter</span>`}
    </div>
    <footer>
      ${card.status === 'backlog' && can('promote') && html`<button data-action="promote" onClick=${() => run('promote')}>promote</button>`}
      ${card.gate && ['ready', 'blocked'].includes(card.status) && can('approve') && html`<button data-action="approve" onClick=${() => run('approve')}>approve</button>`}
      ${ACTIVE.includes(card.status) && can('cancel') && html`<button data-action="cancel" onClick=${() => run('cancel', { reason: 'cancelled on the web board' })}>cancel</button>`}
      ${card.status === 'deadletter' && can('resurrect') && html`<button data-action="resurrect" onClick=${() => run('resurrect')}>resurrect</button>`}
    </footer>
    ${error && html`<p class="error" role="alert">${error}</p>`}
  </article>`;
}
