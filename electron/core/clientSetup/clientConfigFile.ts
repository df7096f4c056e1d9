import { copyFile, lstat, mkdir, realpath } from 'node:fs/promises';
import path from 'node:path';

import { applyEdits, modify, parse, type ParseError, printParseErrorCode } from 'jsonc-parser';
import writeFileAtomic from 'write-file-atomic';

import type { ClientSetupResult, SetupClient } from '../../../shared/shelfApi.js';
import { readRegularText } from '../base/regularFile.js';
import type { BridgeCommand } from './clientConfigs.js';
import { type Place, resolveConfigFile, targetOf } from './clientTargets.js';

export { configFilePath } from './clientTargets.js';

/** The entry name MCP Shelf owns in every client's config. */
export const ENTRY = 'mcp-shelf';

/** The key holding servers, and our entry in it, per client. */
export function entryFor(client: SetupClient, bridge: BridgeCommand): { key: string; value: Record<string, unknown> } {
  const target = targetOf(client);
  const stdio = { command: bridge.command, args: bridge.args, ...(bridge.env ? { env: bridge.env } : {}) };
  return { key: target.key, value: target.typed ? { type: 'stdio', ...stdio } : stdio };
}

function describeErrors(errors: ParseError[], text: string): string {
  const first = errors[0] as ParseError;
  const line = text.slice(0, first.offset).split('\n').length;
  return `${printParseErrorCode(first.error)} at line ${line}`;
}

/**
 * Adds or updates the mcp-shelf entry in a client's config file, keeping
 * every other key and its comments and layout (VS Code's files are JSONC).
 * The old file is copied to a timestamped backup first and the new one is
 * written atomically. A file that does not parse is never touched: the
 * result carries the error and the snippet to paste by hand.
 */
export async function installClientConfig(
  client: SetupClient,
  bridge: BridgeCommand,
  options: { dryRun?: boolean; file?: string } & Place = {},
): Promise<ClientSetupResult> {
  const file = options.file ?? (await resolveConfigFile(client, options));
  const { key, value } = entryFor(client, bridge);
  const snippet = JSON.stringify({ [key]: { [ENTRY]: value } }, null, 2);
  // A config that is a link is edited where it leads (the link stays); one leading nowhere is refused, not replaced.
  const link = await lstat(file).catch(() => null);
  let target = file;
  if (link?.isSymbolicLink()) {
    const real = await realpath(file).catch(() => null);
    if (real === null) return { ok: false, file, error: `${file} is a link to a file that does not exist; it was left as it is`, snippet };
    target = real;
  }
  let text: string | null;
  try {
    // A client's config is small; a FIFO or device there is refused, never waited on.
    text = await readRegularText(target, { maxBytes: 16 * 1024 * 1024 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return { ok: false, file, error: `Cannot read ${file}: ${(err as Error).message}`, snippet };
    text = null;
  }
  // Some editors save JSON with a byte order mark: read past it, and keep it.
  const bom = text?.startsWith('\uFEFF') ? '\uFEFF' : '';
  if (bom) text = (text as string).slice(1);
  const source = text === null || text.trim() === '' ? '{}' : text;
  const errors: ParseError[] = [];
  const parsed = parse(source, errors, { allowTrailingComma: true, disallowComments: false }) as unknown;
  if (errors.length > 0) return { ok: false, file, error: `${file} is not valid JSON (${describeErrors(errors, source)}); it was left as it is`, snippet };
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, file, error: `${file} does not hold a JSON object; it was left as it is`, snippet };
  }
  const servers = (parsed as Record<string, unknown>)[key];
  if (servers !== undefined && (typeof servers !== 'object' || servers === null || Array.isArray(servers))) {
    return { ok: false, file, error: `"${key}" in ${file} is not an object; it was left as it is`, snippet };
  }
  const before = (servers as Record<string, unknown> | undefined)?.[ENTRY];
  const existed = before !== undefined;
  if (existed && JSON.stringify(before) === JSON.stringify(value)) {
    return { ok: true, file, backup: null, action: 'unchanged', content: source };
  }
  const edits = modify(source, [key, ENTRY], value, { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } });
  let next = applyEdits(source, edits);
  if (!next.endsWith('\n')) next += '\n';
  const action = existed ? 'updated' : 'added';
  if (options.dryRun) return { ok: true, file, backup: null, action, content: next };
  let backup: string | null = null;
  if (text !== null) {
    backup = `${target}.bak-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    await copyFile(target, backup);
  } else {
    await mkdir(path.dirname(target), { recursive: true });
  }
  await writeFileAtomic(target, bom + next, { mode: 0o600 });
  return { ok: true, file, backup, action, content: next };
}
