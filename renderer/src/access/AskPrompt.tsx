import './access.css';

import { useEffect, useRef, useState } from 'react';

import type { AccessDecision } from '../../../shared/shelfApi';
import { formatBytes } from '../format';
import { ARM_DELAY_MS } from './armDelay';
import type { HeldAsk } from './useAccess';

/** "connected 14:03:12" (today) or with the date: when the requester's connection began. */
export function since(t: number, now: number): string {
  const d = new Date(t);
  const time = d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
  return new Date(now).toDateString() === d.toDateString() ? time : `${d.toLocaleDateString(undefined, { month: 'short', day: 'numeric' })} ${time}`;
}

/**
 * A client wants to read a file from an ask-before-read folder: the window
 * asks, one read at a time (oldest first), with the time left before it is
 * denied on its own. Deny has the focus and Escape denies: nothing is
 * allowed by a stray key, nor by a click in the first ARM_DELAY_MS.
 *
 * The name is the client's own claim; the connection, how it connects and
 * since when are MCP Shelf's facts, shown beside it. "Allow this client" is
 * offered only where the grant can be tied to a connection.
 */
export function AskPrompt({ asks, answer }: { asks: HeldAsk[]; answer: (id: number, decision: AccessDecision) => Promise<void> }) {
  const ask = asks[0];
  const [now, setNow] = useState(Date.now());
  const [armed, setArmed] = useState<number | null>(null);
  const denyRef = useRef<HTMLButtonElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);

  // Keyed by the ask's id, not the list: other asks coming and going must neither move the focus nor hold the arming off.
  const askId = ask?.id;
  useEffect(() => {
    if (askId === undefined) return;
    setNow(Date.now());
    denyRef.current?.focus();
    const timer = setInterval(() => setNow(Date.now()), 500);
    const arm = setTimeout(() => setArmed(askId), ARM_DELAY_MS);
    return () => {
      clearInterval(timer);
      clearTimeout(arm);
    };
  }, [askId]);

  if (!ask) return null;
  const ready = armed === ask.id;
  // From when this window first heard of the ask, for the ask's own timeout (on this window's clock: no skew with the server's).
  const left = Math.max(0, Math.ceil((ask.deadline - ask.time - (now - ask.receivedAt)) / 1000));
  const who = ask.client ? `${ask.client}${ask.clientVersion ? ` ${ask.clientVersion}` : ''}` : `Client #${ask.connectionId}`;
  const decide = (decision: AccessDecision) => void answer(ask.id, decision);
  const how = ask.transport === 'http' ? `HTTP${ask.allowClient ? ' session' : ', no connection'}` : 'the local socket';

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
            const buttons = [...(boxRef.current?.querySelectorAll('button:not(:disabled)') ?? [])];
            const i = buttons.indexOf(document.activeElement as HTMLButtonElement);
            const next = buttons[(i + (e.shiftKey ? -1 : 1) + buttons.length) % buttons.length] as HTMLButtonElement | undefined;
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
            {formatBytes(ask.size)} · in {ask.folder}
            {ask.via === 'app' && <> · through its MCP Shelf app in the chat</>}
          </p>
          <p className="small ask-who" data-testid="ask-who">
            <span>Client #{ask.connectionId}</span> <span>over {how}</span> {ask.protocolVersion && <span>{ask.protocolVersion}</span>}{' '}
            <span>
              {ask.allowClient ? 'connected' : 'first request'} {since(ask.connectedAt, now)}
            </span>
          </p>
          <p className="muted small">The name is what the client calls itself; the rest is what MCP Shelf sees.</p>
          <p className="small">
            This folder asks before each read. Without an answer the read is denied in {left} s.{' '}
            {ask.allowClient ? (
              '“Allow this client” also allows its next reads from this folder, until it disconnects.'
            ) : (
              <span data-testid="ask-once-only">
                Over HTTP (2026-07-28) each request stands alone, and any program holding the token can send one under this name, so only this one read can be
                allowed.
              </span>
            )}
          </p>
        </div>
        <div className="ask-actions">
          {/* Deny is the default (focused, Enter and Escape): so it is also the one that looks like the default. */}
          <button ref={denyRef} type="button" className="btn btn-primary" onClick={() => ready && decide('deny')} data-testid="ask-deny" data-default-answer>
            Deny
          </button>
          <span className="spacer" />
          {ask.allowClient && (
            <button
              type="button"
              className="btn"
              disabled={!ready}
              onClick={() => decide('client')}
              data-testid="ask-allow-client"
              title="Every read from this folder by this connection, until it disconnects"
            >
              Allow this client
            </button>
          )}
          <button type="button" className="btn" disabled={!ready} onClick={() => decide('once')} data-testid="ask-allow-once">
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
