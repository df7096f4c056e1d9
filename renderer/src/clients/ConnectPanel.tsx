import './clients.css';

import { useState } from 'react';

import type { ClientConfigSnippet, ClientSetupResult, DoctorReport, SetupClient } from '../../../shared/shelfApi';
import { APP_CLIENTS, BROWSE_TOOL, SHOWS_APP } from '../../../shared/shelfApp';
import { CopyButton } from '../ui/CopyButton';
import { DoctorPanel } from './DoctorPanel';

const SETUP: Partial<Record<ClientConfigSnippet['client'], SetupClient>> = {
  'claude-desktop': 'claude-desktop',
  vscode: 'vscode',
  cursor: 'cursor',
  windsurf: 'windsurf',
  'gemini-cli': 'gemini-cli',
};

const listOf = (names: readonly string[]) => `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;

/**
 * Ready-to-paste configuration per client, all launching the stdio bridge
 * with this machine's paths; for the clients with a known config file, one
 * click writes it (with a backup) instead.
 */
export function ConnectPanel({
  snippets,
  install,
  doctor,
}: {
  snippets: ClientConfigSnippet[];
  install: (client: SetupClient) => Promise<ClientSetupResult>;
  doctor: () => Promise<DoctorReport[]>;
}) {
  const [results, setResults] = useState<Partial<Record<string, ClientSetupResult | 'busy'>>>({});
  const run = async (kind: string, client: SetupClient) => {
    setResults((r) => ({ ...r, [kind]: 'busy' }));
    try {
      const result = await install(client);
      setResults((r) => ({ ...r, [kind]: result }));
    } catch (err) {
      setResults((r) => ({ ...r, [kind]: { ok: false, file: '', error: err instanceof Error ? err.message : String(err), snippet: '' } }));
    }
  };
  return (
    <section className="connect" aria-label="Connect a client">
      <p className="lead">
        MCP clients start the bridge, <code>mcp-shelf connect</code>, which forwards their messages to this shelf. Add it to a client with one click, or paste
        the configuration yourself; then restart the client.
      </p>
      <p className="lead app-note" data-testid="app-note">
        <strong>MCP Shelf in the chat.</strong> {listOf(APP_CLIENTS)} show MCP Shelf as an app inside the conversation: ask to browse your shelf (the{' '}
        <code>{BROWSE_TOOL}</code> tool), then filter, search, preview and add files to the chat yourself. Other clients get the same tool&apos;s answer as
        text.
      </p>
      <DoctorPanel run={doctor} install={install} />
      <div className="snippets">
        {snippets.map((s) => {
          const setup = SETUP[s.client];
          const result = results[s.client];
          return (
            <article key={s.client} className="snippet" data-testid={`snippet-${s.client}`}>
              <header>
                <div className="snippet-titles">
                  <h3>
                    {s.title}
                    {SHOWS_APP[s.client] && (
                      <span className="chip chip-accent app-chip" title="Shows MCP Shelf inside the conversation (MCP Apps)">
                        shows the app
                      </span>
                    )}
                  </h3>
                  <span className="muted small mono ellipsis" title={s.location ?? undefined}>
                    {s.location ?? 'Run in a terminal'}
                  </span>
                </div>
                {setup && (
                  <button type="button" className="btn btn-small btn-primary" disabled={result === 'busy'} onClick={() => void run(s.client, setup)}>
                    Add to {s.title}
                  </button>
                )}
                <CopyButton text={s.text} />
              </header>
              {result && result !== 'busy' && (
                <p className={`setup-result ${result.ok ? 'ok' : 'bad'}`} role="status" data-testid="setup-result">
                  {result.ok
                    ? `${result.action === 'unchanged' ? 'Already set up in' : result.action === 'added' ? 'Added to' : 'Updated in'} ${result.file}${result.backup ? ` (backup: ${result.backup})` : ''}. Restart ${s.title} to use it.`
                    : `${result.error}. Paste the configuration below by hand.`}
                </p>
              )}
              <pre className="mono">{s.text}</pre>
            </article>
          );
        })}
      </div>
    </section>
  );
}
