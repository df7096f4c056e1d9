import './styles/tokens.css';
import './styles/base.css';

import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';

import { connectHost } from './api/hostApi';
import type { ConnectionState } from './api/wsClient';
import { App } from './App';

// The connection state lives outside React: the API is created once, before the first render.
let state: ConnectionState = 'connecting';
const watchers = new Set<(s: ConnectionState) => void>();
const api = connectHost((s) => {
  state = s;
  for (const w of watchers) w(s);
});

function Root() {
  const [connection, setConnection] = useState<ConnectionState>(state);
  useEffect(() => {
    watchers.add(setConnection);
    setConnection(state);
    return () => void watchers.delete(setConnection);
  }, []);
  return <App api={api} connection={connection} />;
}

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);
