import type { ClientConfigSnippet } from '../../../shared/shelfApi';
import { CopyButton } from '../ui/CopyButton';

/** Ready-to-paste configuration per client, all launching the stdio bridge with this machine's paths. */
export function ConnectPanel({ snippets }: { snippets: ClientConfigSnippet[] }) {
  return (
    <section className="connect" aria-label="Connect a client">
      <p className="lead">
        MCP clients start the bridge, <code>mcp-shelf connect</code>, which forwards their messages to this shelf. Paste one of these into your client’s
        configuration and restart it.
      </p>
      <div className="snippets">
        {snippets.map((s) => (
          <article key={s.client} className="snippet" data-testid={`snippet-${s.client}`}>
            <header>
              <div className="snippet-titles">
                <h3>{s.title}</h3>
                <span className="muted small mono ellipsis" title={s.location ?? undefined}>
                  {s.location ?? 'Run in a terminal'}
                </span>
              </div>
              <CopyButton text={s.text} />
            </header>
            <pre className="mono">{s.text}</pre>
          </article>
        ))}
      </div>
    </section>
  );
}
