import { useState } from 'react';

import type { ClientSetupResult, DoctorReport, DoctorStep, SetupClient } from '../../../shared/shelfApi';

/** The configs the window may rewrite in one click (user configs; a project's file is the CLI's: `mcp-shelf config … --project`). */
const ONE_CLICK: ReadonlySet<SetupClient> = new Set(['claude-desktop', 'vscode', 'cursor', 'windsurf', 'gemini-cli']);

const MARK: Record<DoctorStep['status'], string> = { pass: '✓', fail: '✗', skip: '–', info: 'i' };
const SAID: Record<DoctorStep['status'], string> = { pass: 'passed', fail: 'failed', skip: 'skipped', info: 'note' };

/**
 * The Compatibility Doctor in the window: on a click, each client config
 * found on this machine is checked and its entry run as the client would,
 * one line per step (green or red, with the fix). A fix that rewrites the
 * entry is one more click; nothing is written otherwise.
 */
export function DoctorPanel({ run, install }: { run: () => Promise<DoctorReport[]>; install: (client: SetupClient) => Promise<ClientSetupResult> }) {
  const [reports, setReports] = useState<DoctorReport[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fixed, setFixed] = useState<Partial<Record<string, ClientSetupResult>>>({});

  const check = async () => {
    setBusy(true);
    setError(null);
    try {
      setReports(await run());
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  const fix = async (target: SetupClient) => {
    const result = await install(target).catch((err: unknown) => ({
      ok: false as const,
      file: '',
      error: err instanceof Error ? err.message : String(err),
      snippet: '',
    }));
    setFixed((f) => ({ ...f, [target]: result }));
    if (result.ok) await check();
  };

  return (
    <section className="doctor" aria-label="Compatibility Doctor">
      <header className="doctor-head">
        <div>
          <h3>Compatibility Doctor</h3>
          <p className="muted small">
            Checks each MCP client config on this machine, then runs its MCP Shelf entry as the client would: connect, list, read a file, an image and a
            document. It changes nothing unless you click a fix.
          </p>
        </div>
        <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void check()}>
          {busy ? 'Checking…' : reports ? 'Check again' : 'Check my clients'}
        </button>
      </header>
      {error && (
        <p className="setup-result bad" role="alert">
          {error}
        </p>
      )}
      {reports?.length === 0 && (
        <p className="muted" data-testid="doctor-none">
          No MCP client config was found on this machine. Add one below.
        </p>
      )}
      {reports?.map((r) => {
        const result = fixed[r.target];
        return (
          <article key={`${r.target}:${r.file}`} className={`doctor-client ${r.ok ? 'ok' : 'bad'}`} data-testid={`doctor-${r.target}`}>
            <header>
              <span className={`doctor-mark ${r.ok ? 'pass' : 'fail'}`} aria-hidden="true">
                {r.ok ? MARK.pass : MARK.fail}
              </span>
              <div className="snippet-titles">
                <h4>
                  {r.client} <span className="muted small">{r.ok ? 'works' : 'needs a fix'}</span>
                </h4>
                <span className="muted small mono ellipsis" title={r.file}>
                  {r.file} · {r.revision}
                </span>
              </div>
            </header>
            <ul className="doctor-steps">
              {r.steps.map((s) => (
                <li key={s.id} className={`doctor-step ${s.status}`}>
                  <span className={`doctor-mark ${s.status}`} aria-hidden="true">
                    {MARK[s.status]}
                  </span>
                  <span className="visually-hidden">{SAID[s.status]}: </span>
                  <div className="doctor-step-text">
                    <span className="doctor-label">{s.label}</span> <span className="doctor-detail">{s.detail}</span>
                    {s.fix && (
                      <div className="doctor-fix">
                        Fix: {s.fix.text}
                        {s.fix.action === 'rewrite-entry' && ONE_CLICK.has(r.target) && (
                          <button type="button" className="btn btn-small" onClick={() => void fix(r.target)}>
                            Rewrite the entry
                          </button>
                        )}
                        {s.fix.action === 'rewrite-entry' && !ONE_CLICK.has(r.target) && (
                          <code className="mono">
                            mcp-shelf config {r.target} --project {'<folder>'}
                          </code>
                        )}
                      </div>
                    )}
                  </div>
                </li>
              ))}
            </ul>
            {result && (
              <p className={`setup-result ${result.ok ? 'ok' : 'bad'}`} role="status">
                {result.ok
                  ? `Rewrote the entry in ${result.file}${result.backup ? ` (backup: ${result.backup})` : ''}. Restart ${r.client} to use it.`
                  : result.error}
              </p>
            )}
          </article>
        );
      })}
    </section>
  );
}
