import { useEffect, useRef, useState } from 'react';

import type { AccessAsk, AccessDecision } from '../../../shared/shelfApi';
import { formatBytes } from '../format';

/**
 * A client wants to read a file from an ask-before-read folder: the window
 * asks, one read at a time (oldest first), with the time left before it is
 * denied on its own. Deny has the focus and Escape denies: nothing is
 * allowed by a stray key.
 */
export function AskPrompt({ asks, answer }: { asks: AccessAsk[]; answer: (id: number, decision: AccessDecision) => Promise<void> }) {
  const ask = asks[0];
  const [now, setNow] = useState(Date.now());
  const denyRef = useRef<HTMLButtonElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!ask) return;
    denyRef.current?.focus();
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [ask]);

  if (!ask) return null;
  const left = Math.max(0, Math.ceil((ask.deadline - now) / 1000));
  const who = ask.client ? `${ask.client}${ask.clientVersion ? ` ${ask.clientVersion}` : ''}` : `Client #${ask.connectionId}`;
  const decide = (decision: AccessDecision) => void answer(ask.id, decision);

  return (
    <div className="modal-backdrop" data-testid="ask-prompt">
      <div
        ref={boxRef}
        className="modal ask"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="ask-title"
        aria-describedby="ask-detail"
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            decide('deny');
          } else if (e.key === 'Tab') {
            // Keep the focus inside the prompt while it waits for an answer.
            const buttons = [...(boxRef.current?.querySelectorAll('button') ?? [])];
            const i = buttons.indexOf(document.activeElement as HTMLButtonElement);
            const next = buttons[(i + (e.shiftKey ? -1 : 1) + buttons.length) % buttons.length];
            e.preventDefault();
            next?.focus();
          }
        }}
      >
        <div className="ask-icon" aria-hidden="true" />
        <h2 id="ask-title">
          Allow <strong>{who}</strong> to read this file?
        </h2>
        <div id="ask-detail" className="ask-detail">
          <code className="mono ask-path" data-testid="ask-path">
            {ask.path}
          </code>
          <p className="muted small">
            {formatBytes(ask.size)} · in {ask.folder} · over {ask.transport === 'http' ? 'HTTP' : 'the local socket'}
            {ask.via === 'app' && <> · through its MCP Shelf app in the chat</>}
          </p>
          <p className="small">
            This folder asks before each read. Without an answer the read is denied in {left} s. “Allow this client” also allows its next reads from this
            folder, until it disconnects.
          </p>
        </div>
        <div className="ask-actions">
          <button ref={denyRef} type="button" className="btn" onClick={() => decide('deny')} data-testid="ask-deny">
            Deny
          </button>
          <span className="spacer" />
          <button type="button" className="btn" onClick={() => decide('client')} data-testid="ask-allow-client" title="Every read from this folder by this client, until it disconnects">
            Allow this client
          </button>
          <button type="button" className="btn btn-primary" onClick={() => decide('once')} data-testid="ask-allow-once">
            Allow once
          </button>
        </div>
        {asks.length > 1 && (
          <p className="muted small ask-more" data-testid="ask-more">
            {asks.length - 1} more {asks.length === 2 ? 'read is' : 'reads are'} waiting.
          </p>
        )}
      </div>
    </div>
  );
}
