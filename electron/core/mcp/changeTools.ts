import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import * as z from 'zod';

import type { AccessEntry } from '../../../shared/shelfApi.js';
import type { Requester } from '../access/clientReads.js';
import type { CancelHook } from '../base/requestCancel.js';
import type { ClientChanges } from '../changes/clientChanges.js';

/**
 * The tools by which a model hands work back: write_resource and
 * edit_resource. They are listed only while some folder lets a model
 * propose changes ("Changes by AI: ask me"), and a call waits for the
 * person's decision in the window; nothing is written before they approve.
 */

const MAX_EDITS = 100;
/** What one call may carry at most; the setting (10 MiB by default) bounds the file itself. */
const MAX_TEXT = 16 * 1024 * 1024;

const uri = z.string().min(1).max(8192).describe('The file’s URI (file://…), as list_resources gives it; for a new file, its URI inside a published folder');
const dryRun = z.boolean().optional().describe('Return the unified diff without asking the person or writing anything');

export const WriteArgs = z
  .object({
    uri,
    text: z.string().max(MAX_TEXT).describe('The whole text of the file'),
    dryRun,
  })
  .strict();

export const EditArgs = z
  .object({
    uri,
    edits: z
      .array(
        z
          .object({
            oldText: z.string().min(1).max(MAX_TEXT).describe('Text to replace, exactly as it is in the file (it must occur once)'),
            newText: z.string().max(MAX_TEXT).describe('What replaces it'),
          })
          .strict(),
      )
      .min(1)
      .max(MAX_EDITS)
      .describe('Replacements made in order, each on the text the ones before it left'),
    dryRun,
  })
  .strict();

function schema(s: z.ZodType): Tool['inputSchema'] {
  const json = z.toJSONSchema(s) as Record<string, unknown>;
  delete json.$schema;
  return json as Tool['inputSchema'];
}

/** What a call gives back: what happened, or (isError) the error a resources/* call would get, with its reason in data. */
const OUTPUT = schema(
  z.object({
    status: z.enum(['written', 'dry-run', 'unchanged']).optional(),
    uri: z.string().optional(),
    error: z.object({ code: z.number(), message: z.string(), data: z.unknown().optional() }).optional(),
    size: z.number().optional(),
    added: z.number().optional(),
    removed: z.number().optional(),
    created: z.boolean().optional(),
    edited: z.boolean().optional(),
  }),
);

const ASKS =
  'Nothing is written until the person approves the change in MCP Shelf: the call waits for their decision and says what happened (written, declined, no answer in time, or a conflict if the file changed meanwhile). dryRun: true returns the diff without asking.';

export const CHANGE_TOOLS: Tool[] = [
  {
    name: 'write_resource',
    title: 'Write a file (the person approves)',
    description: `Creates a text file (and its missing folders) inside a published folder, or replaces one whole. ${ASKS} Prefer edit_resource for a small change to an existing file.`,
    inputSchema: schema(WriteArgs),
    outputSchema: OUTPUT as Tool['outputSchema'],
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  },
  {
    name: 'edit_resource',
    title: 'Edit a file (the person approves)',
    description: `Changes a text file by exact replacements: each oldText must occur exactly once (copy it from read_resource, indentation included); otherwise nothing is written and the error names the nearest line. ${ASKS}`,
    inputSchema: schema(EditArgs),
    outputSchema: OUTPUT as Tool['outputSchema'],
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  },
];

export const CHANGE_TOOL_NAMES: ReadonlySet<string> = new Set(CHANGE_TOOLS.map((t) => t.name));

/** Runs a change tool (its arguments already parsed by the caller's rules); null `changes`: the tools are off on this shelf. */
export function runChangeTool(
  changes: ClientChanges,
  who: Requester,
  name: string,
  args: z.infer<typeof WriteArgs> | z.infer<typeof EditArgs>,
  via: AccessEntry['via'],
  budget: number,
  cancel?: CancelHook,
): Promise<CallToolResult> {
  const by = via === 'app' ? 'app' : 'tool';
  return name === 'write_resource'
    ? changes.write(args as z.infer<typeof WriteArgs>, who, by, budget, cancel)
    : changes.edit(args as z.infer<typeof EditArgs>, who, by, budget, cancel);
}
