// The web board's page (docs/web-board.md): the server names the view in a meta tag; no client router.
import { html } from 'htm/preact';
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { AgentsPage } from './agents.js';
import { getJson, meta } from './api.js';
import { Board } from './board.js';
import { TaskPage } from './task.js';

function App() {
  const [actions, setActions] = useState([]);
  useEffect(
    () =>
      void getJson('/api/meta').then(
        (body) => setActions(body.actions),
        () => undefined,
      ),
    [],
  );
  const view = meta('view');
  if (view === 'task') return html`<${TaskPage} id=${meta('task')} actions=${actions} />`;
  if (view === 'agents') return html`<${AgentsPage} />`;
  return html`<${Board} actions=${actions} />`;
}

render(html`<${App} />`, document.getElementById('app'));
