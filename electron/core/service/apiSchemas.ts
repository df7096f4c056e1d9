import * as z from 'zod';

import type { TrafficQuery } from '../../../shared/shelfApi.js';

/** Arguments from either host are checked here before the service uses them. */

/** What the window may change on a folder; anything else is refused. */
export const FolderOptionsPatchSchema = z
  .object({
    showHidden: z.boolean(),
    gitignore: z.boolean(),
    extraIgnore: z.array(z.string().min(1).max(1000)).max(500),
  })
  .partial()
  .strict();

/** A traffic query as the window sends it; nulls (absent over the WebSocket) count as absent. */
export const TrafficQuerySchema = z
  .object({
    connectionId: z.number().int().nullish(),
    method: z.string().max(200).nullish(),
    errorsOnly: z.boolean().nullish(),
    text: z.string().max(1000).nullish(),
    afterSeq: z.number().int().nullish(),
    limit: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).nullish(),
  })
  .strict()
  .nullish()
  .transform((q) => Object.fromEntries(Object.entries(q ?? {}).filter(([, v]) => v !== null && v !== undefined)));

export function parseTrafficQuery(query: unknown): TrafficQuery {
  const parsed = TrafficQuerySchema.safeParse(query);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Invalid traffic query: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim());
  }
  return parsed.data as TrafficQuery;
}
