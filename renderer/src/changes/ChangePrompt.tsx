import './changes.css';

import { useEffect, useRef, useState } from 'react';

import type { ChangeDecision, ChangeProposal } from '../../../shared/changeTypes';
import type { ShelfApi } from '../../../shared/shelfApi';
import { ARM_DELAY_MS } from '../access/armDelay';
import { since } from '../access/AskPrompt';
import { formatBytes } from '../format';
import { languageFor } from '../preview/previewKind';
import { type DiffLayout, DiffView } from './DiffView';
import { useChangeDiff } from './useChangeDiff';

const LAYOUT_KEY = 'mcp-shelf-diff-layout';
const savedLayout = (): DiffLayout => (localStorage.getItem(LAYOUT_KEY) === 'split' ? 'split' : 'unified');

const VERB: Record<ChangeProposal['kind'], string> = { create: 'create', replace: 'replace', edit: 'edit' };

/** "58 s", or "2 min 05 s" for long ask timeouts. */
function timeLeft(s: number): string {
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/**
 * A model proposes a change to a file (write_resource, edit_resource): the
 * window shows who asks, where, and the change itself, one proposal at a
 * time (oldest first). Decline has the focus and Escape declines: nothing
 * is written by a stray key, nor by a click in the first ARM_DELAY_MS.
 * Edit… lets the person change the text before approving it.
 */
export function ChangePrompt({
  api,
  proposals,
  answer,
  fail,
}: {
  api: ShelfApi;
  proposals: ChangeProposal[];
  answer: (id: number, decision: ChangeDecision) => Promise<void>;
  fail: (err: unknown) => void;
}) {
  const proposal = proposals[0];
  if (!proposal) return null;
  // Keyed by the proposal: the next one starts afresh (its own diff, arming, focus and countdown).
  return <ProposalPrompt key={proposal.id} api={api} proposal={proposal} waiting={proposals.length - 1} answer={answer} fail={fail} />;
}

function ProposalPrompt({
  api,
  proposal: p,
  waiting,
  answer,
  fail,
}: {
  api: ShelfApi;
  proposal: ChangeProposal;
  waiting: number;
  answer: (id: number, decision: ChangeDecision) => Promise<void>;
  fail: (err: unknown) => void;
}) {
  const [shownAt] = useState(Date.now);
  const [now, setNow] = useState(shownAt);
  const [armed, setArmed] = useState(false);
  const [layout, setLayout] = useState(savedLayout);
  /** The text being edited (null: the diff is shown), and the proposed text it started from. */
  const [edit, setEdit] = useState<{ text: string; original: string } | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const diff = useChangeDiff(api, p.id, p.hunks, fail);
  const declineRef = useRef<HTMLButtonElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    declineRef.current?.focus();
    const timer = setInterval(() => setNow(Date.now()), 500);
    const arm = setTimeout(() => setArmed(true), ARM_DELAY_MS);
    return () => {
      clearInterval(timer);
      clearTimeout(arm);
    };
  }, []);

  const left = Math.max(0, Math.ceil((p.deadline - p.time - (now - shownAt)) / 1000));
  const who = p.client ? `${p.client}${p.clientVersion ? ` ${p.clientVersion}` : ''}` : `Client #${p.connectionId}`;
  const how = p.transport === 'http' ? 'HTTP' : 'the local socket';
  const created = p.kind === 'create';
  const decide = (decision: ChangeDecision) => {
    if (sent) return;
    setSent(true);
    void answer(p.id, decision);
  };
  const decline = () => decide({ approve: false });
  const approve = () => {
    if (!armed) return;
    decide(edit && edit.text !== edit.original ? { approve: true, text: edit.text } : { approve: true });
  };
  const startEdit = async () => {
    setNote(null);
    try {
      const text = await diff.fullText();
      if (text === undefined) setNote('This change is too large to edit here: approve or decline it as it is.');
      else if (text !== null) setEdit({ text, original: text });
    } catch (err) {
      fail(err);
    }
  };
  const chooseLayout = (l: DiffLayout) => {
    setLayout(l);
    localStorage.setItem(LAYOUT_KEY, l);
  };
  const shownLayout: DiffLayout = created ? 'unified' : layout;
  const edited = edit !== null && edit.text !== edit.original;

  return (
    <div className="modal-backdrop" data-testid="change-prompt">
      <div
        ref={boxRef}
        className="modal change"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="change-title"
        aria-describedby="change-detail"
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            // In the editor Escape first leaves it (to Decline): a second Escape declines, so a reflex does not throw the edit away unseen.
            if (e.target instanceof HTMLTextAreaElement) declineRef.current?.focus();
            else decline();
          } else if (e.key === 'Tab') {
            // Keep the focus inside the prompt while it waits for a decision.
            const stops = [...(boxRef.current?.querySelectorAll<HTMLElement>('button:not(:disabled), textarea, [tabindex="0"]') ?? [])];
            const i = stops.indexOf(document.activeElement as HTMLElement);
            const next = stops[(i + (e.shiftKey ? -1 : 1) + stops.length) % stops.length];
            e.preventDefault();
            next?.focus();
          }
        }}
      >
        <div className="change-head">
          <div className="change-icon" aria-hidden="true" />
          <div className="change-head-text">
            <h2 id="change-title">
              <strong>{who}</strong> wants to {VERB[p.kind]} {created ? 'a file' : 'this file'}
            </h2>
            <p className="small change-who" data-testid="change-who">
              <span>Client #{p.connectionId}</span> <span>over {how}</span> {p.protocolVersion && <span>{p.protocolVersion}</span>}{' '}
              <span>connected {since(p.connectedAt, now)}</span>
              {p.via === 'app' && <span>through its MCP Shelf app in the chat</span>}
            </p>
          </div>
        </div>
        <div id="change-detail" className="change-detail">
          <div className="change-where">
            <code className="mono change-path" data-testid="change-path" title={`${p.folder}/${p.path}`}>
              {p.path}
            </code>
            <span className="muted small change-folder">in {p.folder}</span>
          </div>
          <p className="small change-facts" data-testid="change-facts">
            {created && <span className="chip chip-accent">new file</span>}
            <span className="change-count">
              <span className="change-plus">+{p.added.toLocaleString()}</span> <span className="change-minus">−{p.removed.toLocaleString()}</span>{' '}
              <span className="muted">{p.added + p.removed === 1 ? 'line' : 'lines'}</span>
            </span>
            <span className="muted">{created ? formatBytes(p.sizeAfter) : `${formatBytes(p.sizeBefore ?? 0)} → ${formatBytes(p.sizeAfter)}`}</span>
            {p.newFolders.length > 0 && (
              <span className="muted" data-testid="change-new-folders">
                also creates {p.newFolders.length === 1 ? 'the folder' : 'the folders'} {p.newFolders.map((f) => `${f}/`).join(', ')}
              </span>
            )}
          </p>
        </div>
        <div className="change-bar">
          {edit ? (
            <span className="small">Editing the proposed text{edited ? <span className="muted"> · changed by you</span> : null}</span>
          ) : created ? (
            <span className="small muted">The new file’s content</span>
          ) : (
            <div className="segmented" role="group" aria-label="Diff layout">
              <button type="button" aria-pressed={layout === 'unified'} onClick={() => chooseLayout('unified')}>
                Unified
              </button>
              <button type="button" aria-pressed={layout === 'split'} onClick={() => chooseLayout('split')}>
                Side by side
              </button>
            </div>
          )}
          <span className="spacer" />
          <span className="small muted" data-testid="change-countdown">
            Declined on its own in {timeLeft(left)}
          </span>
        </div>
        {edit ? (
          <textarea
            className="input mono change-editor"
            aria-label="The text to write"
            value={edit.text}
            onChange={(e) => setEdit({ ...edit, text: e.target.value })}
            spellCheck={false}
            data-testid="change-editor"
          />
        ) : (
          <div className="change-diff" tabIndex={0} aria-label="The change" data-testid="change-diff">
            {diff.gone ? (
              <p className="muted small change-empty">This change is no longer waiting.</p>
            ) : diff.hunks.length === 0 ? (
              <p className="muted small change-empty">{diff.loading ? 'Loading the change…' : 'No line changes: the text is the same.'}</p>
            ) : (
              <DiffView hunks={diff.hunks} layout={shownLayout} language={languageFor(p.path, '')} />
            )}
            {diff.hunks.length > 0 && diff.hunks.length < diff.total && (
              <div className="load-more">
                <button type="button" className="btn btn-small" onClick={diff.more} disabled={diff.loading} data-testid="change-more">
                  Show more · {plural(diff.total - diff.hunks.length, 'more part', 'more parts')} of {diff.total.toLocaleString()}
                </button>
              </div>
            )}
          </div>
        )}
        {note && (
          <p className="small change-note" role="status">
            {note}
          </p>
        )}
        <div className="ask-actions change-actions">
          {/* Decline is the default (focused, Enter and Escape): so it is also the one that looks like the default. */}
          <button
            ref={declineRef}
            type="button"
            className="btn btn-primary"
            onClick={() => armed && decline()}
            disabled={sent}
            data-testid="change-decline"
            data-default-answer
          >
            Decline
          </button>
          <span className="spacer" />
          {edit ? (
            <button type="button" className="btn" onClick={() => setEdit(null)} disabled={sent} data-testid="change-edit-cancel">
              Back to the proposal
            </button>
          ) : (
            <button type="button" className="btn" onClick={() => void startEdit()} disabled={sent || diff.gone} data-testid="change-edit">
              Edit…
            </button>
          )}
          <button type="button" className="btn" disabled={!armed || sent || diff.gone} onClick={approve} data-testid="change-approve">
            {edited ? 'Approve my edit' : 'Approve'}
          </button>
        </div>
        {waiting > 0 && (
          <p className="muted small ask-more" data-testid="change-more-waiting">
            {waiting} more {waiting === 1 ? 'change is' : 'changes are'} waiting.
          </p>
        )}
      </div>
    </div>
  );
}
