import { lstatSync } from 'node:fs';

import type { CallToolResult } from '@modelcontextprotocol/server';

import type {
  AccessChange,
  ChangeDiffPage,
  ChangeKind,
  ChangeOutcome,
  ChangeProposal,
  ChangeRefusal,
  DiffHunk,
  UndoResult,
  UndoState,
} from '../../../shared/changeTypes.js';
import { ErrorCodes } from '../../../shared/errorCodes.js';
import type { AccessEntry } from '../../../shared/shelfApi.js';
import { partyOf, type Requester } from '../access/askGate.js';
import type { HistoryStore } from '../access/historyStore.js';
import type { CancelHook } from '../base/requestCancel.js';
import { ShelfError } from '../base/shelfError.js';
import type { Library } from '../library/library.js';
import { changeRefused, type ChangeTarget, changeTarget, type CurrentFile, readCurrent, sha256, writeChecked } from '../library/safeWrite.js';
import { joinRel } from '../library/uriPath.js';
import type { ChangeGate } from './changeGate.js';
import { unifiedText } from './lineDiff.js';
import type { LineDiffer } from './lineDiffer.js';
import { applyEdits, type TextEdit } from './textEdits.js';
import type { UndoStore } from './undoStore.js';

/**
 * The one door for changes a model proposes (write_resource,
 * edit_resource), as ClientReads is for reads: the target checked as a
 * write must be (safeWrite.ts), the new text worked out and its diff made,
 * then the person decides in the window; only an approved change is
 * written, and only if the file is still what the proposal was based on.
 * Every change the person saw is in the access history, and every written
 * one can be undone from there.
 */

export interface ChangeLimits {
  /** Bytes a file may have, before or after a change. */
  maxBytes: number;
}

export interface ClientChangesOptions {
  library: Library;
  gate: ChangeGate;
  undo: UndoStore;
  history: HistoryStore | null;
  recorded?: (entry: AccessEntry) => void;
  /** Whether the folder at this root lets a model propose changes ("Changes by AI: ask me"). */
  allows: (folderRoot: string) => boolean;
  /** Whether reads under the folder at this root ask first: then nothing of the file goes back to the model without a read the person allowed. */
  asks: (folderRoot: string) => boolean;
  /** The read ask, for a dry run in such a folder (its diff shows the file). */
  allowRead: (uri: string, who: Requester, via: 'tool' | 'app', cancel?: CancelHook) => Promise<void>;
  limits: () => ChangeLimits;
  /** Diffs of proposals (large ones off the main thread). */
  differ: LineDiffer;
}

export interface ChangeArgs {
  uri: string;
  dryRun?: boolean;
}

/** What is kept of a waiting proposal for the window: its diff and its text. */
interface Kept {
  hunks: DiffHunk[];
  text: string;
}

const n = (x: number) => x.toLocaleString('en');
const decoder = new TextDecoder('utf-8', { fatal: true });

const OUTCOME_TEXT: Record<Exclude<ChangeOutcome, 'written'>, string> = {
  declined: 'the person declined it in MCP Shelf',
  timeout: 'nobody answered in time (a change waits for the person’s decision)',
  conflict: 'the file changed since the change was proposed',
  'no-window': 'no MCP Shelf window is open to ask (the person must open the app, or mcp-shelf serve --ui in a browser)',
  busy: 'too many changes are already waiting for a decision; wait for those first',
  disconnected: 'the client disconnected while it waited',
  cancelled: 'the client cancelled it while it waited',
  failed: 'the write failed',
};

export class ClientChanges {
  private readonly kept = new Map<number, Kept>();

  constructor(private readonly options: ClientChangesOptions) {}

  /** Whether any folder lets a model propose changes (the change tools are listed only then). */
  anyAllowed(): boolean {
    return this.options.library.list().some((f) => this.options.allows(f.root));
  }

  /** write_resource: a new file (and its missing folders) or a file replaced whole. */
  write(args: ChangeArgs & { text: string }, who: Requester, via: 'tool' | 'app', budget: number, cancel?: CancelHook): Promise<CallToolResult> {
    return this.propose(args, who, via, budget, cancel, (current) => ({ kind: current ? 'replace' : 'create', text: args.text }));
  }

  /** edit_resource: exact replacements, each oldText found once, in order. */
  edit(args: ChangeArgs & { edits: TextEdit[] }, who: Requester, via: 'tool' | 'app', budget: number, cancel?: CancelHook): Promise<CallToolResult> {
    return this.propose(args, who, via, budget, cancel, (current, reveal) => {
      if (current === null)
        throw changeRefused(args.uri, 'not-a-file', 'There is no such file to edit: edit_resource changes an existing file (write_resource makes a new one)');
      return { kind: 'edit', text: applyEdits(args.uri, current, args.edits, reveal) };
    });
  }

  private async propose(
    args: ChangeArgs,
    who: Requester,
    via: 'tool' | 'app',
    budget: number,
    cancel: CancelHook | undefined,
    make: (current: string | null, reveal: boolean) => { kind: ChangeKind; text: string },
  ): Promise<CallToolResult> {
    const { uri } = args;
    const target = changeTarget(this.options.library.list(), uri);
    const root = target.folder.root;
    if (!this.options.allows(root))
      throw changeRefused(uri, 'off', `Changes by AI are off for ${root}: the person can turn on “Changes by AI: ask me” in the folder’s Options in MCP Shelf`);
    const { maxBytes } = this.options.limits();
    const reveal = !this.options.asks(root);
    const current = readCurrent(target, uri, maxBytes);
    const currentText = current === null ? null : textOf(uri, current);
    const { kind, text } = make(currentText, reveal);
    const bytes = Buffer.from(text, 'utf8');
    if (bytes.length > maxBytes) throw changeRefused(uri, 'too-large', `The new text is ${n(bytes.length)} bytes, over the ${n(maxBytes)} a change may be`);
    if (currentText === text) return result(`${uri} already holds this text: there is nothing to change.`, { status: 'unchanged', uri });
    const diff = await this.options.differ.diff(currentText ?? '', text, partyOf(who));
    const newFolders = missingFolders(target);
    if (args.dryRun) {
      // The diff shows the file: in a folder that asks before reads, only after a read the person allowed.
      if (!reveal && current) await this.options.allowRead(uri, who, via, cancel);
      const what = `${kind === 'create' ? 'A new file' : 'The change'}: ${plural(diff.added, 'line')} added, ${plural(diff.removed, 'line')} removed. Nothing was written (dryRun).`;
      return result(`${what}\n${unifiedText(target.rel, current === null, diff.hunks, budget)}`, {
        status: 'dry-run',
        uri,
        added: diff.added,
        removed: diff.removed,
      });
    }
    // What the proposal holds while it waits (its text, its diff) is the client's, in the memory budget.
    const lease = who.memory.reserve(2 * text.length + hunkBytes(diff.hunks) + 4096, 'this change');
    let id = 0;
    try {
      const facts = {
        uri,
        folder: root,
        path: target.rel,
        kind,
        added: diff.added,
        removed: diff.removed,
        sizeBefore: current?.bytes.length ?? null,
        sizeAfter: bytes.length,
        hunks: diff.hunks.length,
        newFolders,
      };
      const decision = await this.options.gate.propose(who, via, facts, cancel, (made) => {
        id = made;
        this.kept.set(made, { hunks: diff.hunks, text });
      });
      const record = (outcome: ChangeOutcome, change: Partial<AccessChange> = {}) =>
        this.record(who, via, target, {
          kind,
          outcome,
          added: diff.added,
          removed: diff.removed,
          sizeBefore: facts.sizeBefore,
          sizeAfter: bytes.length,
          ...change,
        });
      if (typeof decision === 'string') {
        // Refused before anyone was asked (no window, too many waiting): the client is told; nothing was seen to record.
        if (decision !== 'no-window' && decision !== 'busy') record(decision);
        throw notMade(uri, decision);
      }
      if (!decision.approve) {
        record('declined');
        throw notMade(uri, 'declined');
      }
      const edited = decision.text !== undefined && decision.text !== text;
      const finalText = edited ? (decision.text as string) : text;
      const finalBytes = edited ? Buffer.from(finalText, 'utf8') : bytes;
      const finalDiff = edited ? await this.options.differ.diff(currentText ?? '', finalText, partyOf(who)) : diff;
      if (finalBytes.length > maxBytes) {
        record('failed', { edited });
        throw changeRefused(uri, 'too-large', `The text as edited is over the ${n(maxBytes)} bytes a change may be; nothing was written`);
      }
      // Decided again at write time: the folder may have stopped allowing changes, or its rules begun to hide the path.
      const now = changeTarget(this.options.library.list(), uri);
      if (!this.options.allows(now.folder.root)) {
        record('failed', { edited });
        throw changeRefused(uri, 'off', `Not written: changes by AI were turned off for ${now.folder.root} while the change waited`);
      }
      const written = await this.writeApproved(now, uri, current, finalBytes, maxBytes, budget, reveal, finalText);
      record('written', { edited, added: finalDiff.added, removed: finalDiff.removed, sizeAfter: finalBytes.length, undoId: written.undoId });
      const lines = finalText === '' ? 0 : finalText.split('\n').length - (finalText.endsWith('\n') ? 1 : 0);
      const made = written.madeFolders.length > 0 ? ` It made the folder(s) ${written.madeFolders.join(', ')}.` : '';
      const note = edited ? ' The person edited your text before approving it: read the file back to see what was written.' : '';
      return result(
        `Written ${uri}: ${n(finalBytes.length)} bytes, ${plural(lines, 'line')} (+${finalDiff.added} −${finalDiff.removed}), approved by the person.${made}${note} Read it back with read_resource.`,
        { status: 'written', uri, size: finalBytes.length, added: finalDiff.added, removed: finalDiff.removed, created: current === null, edited },
      );
    } finally {
      if (id) this.kept.delete(id);
      lease.release();
    }
  }

  /**
   * The approved bytes on disk, if the file is still what the proposal saw:
   * its previous version kept for Undo first, then the checked write. A
   * conflict tells the model how its text differs from the file now (where
   * it may see the file).
   */
  private async writeApproved(
    target: ChangeTarget,
    uri: string,
    base: CurrentFile | null,
    bytes: Buffer,
    maxBytes: number,
    budget: number,
    reveal: boolean,
    text: string,
  ): Promise<{ undoId: string; madeFolders: string[] }> {
    const expected = base ? { hash: sha256(base.bytes) } : ({ absent: true } as const);
    const undoId = await this.options.undo.keep(
      { time: Date.now(), uri, folder: target.folder.root, path: target.rel, created: base === null, writtenHash: sha256(bytes) },
      base?.bytes ?? null,
    );
    try {
      const written = writeChecked(target, uri, bytes, expected, maxBytes);
      return { undoId, madeFolders: written.madeFolders };
    } catch (err) {
      await this.options.undo.forget(undoId);
      if ((err as ShelfError).data && (err as ShelfError & { data: { reason?: string } }).data.reason === 'conflict' && reveal) {
        const now = readCurrent(target, uri, maxBytes);
        const nowText = now === null ? '' : textOf(uri, now);
        const fresh = unifiedText(target.rel, now === null, (await this.options.differ.diff(nowText, text)).hunks, Math.min(budget, 20_000));
        throw changeRefused(
          uri,
          'conflict',
          `${(err as Error).message}. How your text differs from the file as it is now:\n${fresh}\nRead the file again and propose the change anew.`,
        );
      }
      throw err;
    }
  }

  /**
   * The proposals one connection made that wait for the person, for the
   * in-chat app: never another connection's (a client must not learn what
   * others propose), and none while no folder allows changes (a change
   * still waiting then can no longer be written).
   */
  waitingFrom(connectionId: number): ChangeProposal[] {
    if (!this.anyAllowed()) return [];
    return this.options.gate
      .pending()
      .filter((p) => p.connectionId === connectionId)
      .sort((a, b) => a.id - b.id);
  }

  /** A page of a waiting proposal's diff for the window (and its whole text, to edit before approving); null once it stopped waiting. */
  diffPage(id: number, from: number, count: number, withText: boolean): ChangeDiffPage | null {
    const kept = this.kept.get(id);
    if (!kept) return null;
    const page: ChangeDiffPage = { id, hunks: kept.hunks.slice(from, from + count), from, total: kept.hunks.length };
    if (withText) page.text = kept.text;
    return page;
  }

  /** Whether the change kept under `undoId` can still be undone (as far as the store knows; Undo looks at the file). */
  undoState(undoId: string): UndoState {
    const k = this.options.undo.get(undoId);
    return !k ? 'expired' : k.undoneAt !== undefined ? 'undone' : 'available';
  }

  /** Puts back the version a change replaced (or removes the file it made), unless the file changed again since. */
  async undo(undoId: string): Promise<UndoResult> {
    const k = this.options.undo.get(undoId);
    if (!k)
      return {
        ok: false,
        state: 'expired',
        message: 'This change can no longer be undone: its previous version is no longer kept (see Settings, changes kept)',
      };
    if (k.undoneAt !== undefined) return { ok: false, state: 'undone', message: 'This change was undone already' };
    let target: ChangeTarget;
    try {
      target = changeTarget(this.options.library.list(), k.uri);
    } catch {
      return { ok: false, state: 'available', message: 'Not undone: the file’s folder is no longer published (or the path is now hidden by its rules)' };
    }
    const limit = Math.max(this.options.limits().maxBytes, k.bytes);
    const now = readCurrent(target, k.uri, Number.MAX_SAFE_INTEGER);
    if (now === null || sha256(now.bytes) !== k.writtenHash)
      return { ok: false, state: 'changed-since', message: 'Not undone: the file changed again since this change (undoing it would lose those edits)' };
    try {
      writeChecked(target, k.uri, await this.options.undo.previous(k), { hash: k.writtenHash }, Math.max(limit, now.bytes.length));
    } catch (err) {
      return { ok: false, state: 'available', message: `Not undone: ${(err as Error).message}` };
    }
    await this.options.undo.markUndone(undoId);
    return { ok: true, state: 'undone', message: k.created ? `Undone: ${k.path} was removed` : `Undone: ${k.path} is as it was before the change` };
  }

  private record(who: Requester, via: 'tool' | 'app', target: ChangeTarget, change: AccessChange): void {
    const history = this.options.history;
    if (!history) return;
    const ok = change.outcome === 'written';
    const denied = !ok && change.outcome !== 'conflict' && change.outcome !== 'failed';
    const entry = history.append({
      time: Date.now(),
      client: who.name,
      clientVersion: who.version,
      protocolVersion: who.protocolVersion,
      transport: who.transport,
      via,
      uri: target.folder.uriOf(target.rel),
      folder: target.folder.root,
      size: change.sizeAfter,
      outcome: ok ? 'ok' : denied ? 'denied' : 'error',
      errorCode: ok ? null : ErrorCodes.changeNotMade,
      errorMessage: ok ? null : OUTCOME_TEXT[change.outcome as Exclude<ChangeOutcome, 'written'>],
      detail: `${change.kind}, +${change.added} −${change.removed}`,
      change,
      ...(ok ? {} : { errorReason: change.outcome }),
    });
    if (entry) this.options.recorded?.(entry);
  }
}

/** The error a change that was not made gets (error 1008, with the reason). */
export function notMade(uri: string, reason: ChangeRefusal): ShelfError {
  const why = reason in OUTCOME_TEXT ? OUTCOME_TEXT[reason as keyof typeof OUTCOME_TEXT] : reason;
  return changeRefused(uri, reason, `Not written: ${why}. The file is as it was.`);
}

function textOf(uri: string, file: CurrentFile): string {
  try {
    return decoder.decode(file.bytes);
  } catch {
    throw changeRefused(uri, 'not-text', 'Not a UTF-8 text file: MCP Shelf changes text files only (this one is binary or in another encoding)');
  }
}

/** The parent folders a write would make (none when they all exist). */
function missingFolders(target: ChangeTarget): string[] {
  const parts = target.rel.split('/').slice(0, -1);
  const missing: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const rel = parts.slice(0, i + 1).join('/');
    if (missing.length > 0 || !isDir(joinRel(target.folder.realRoot, rel))) missing.push(rel);
  }
  return missing;
}

const isDir = (p: string): boolean => {
  try {
    return lstatSync(p).isDirectory();
  } catch {
    return false; // not there (yet): the write makes it
  }
};

const hunkBytes = (hunks: DiffHunk[]) => hunks.reduce((sum, h) => sum + h.lines.reduce((s, l) => s + 2 * l.text.length + 48, 0), 0);
const plural = (count: number, what: string) => `${n(count)} ${what}${count === 1 ? '' : 's'}`;

function result(text: string, structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}
