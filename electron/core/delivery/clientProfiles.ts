import type { DeliverySettings } from '../../../shared/shelfApi.js';

/**
 * What a tool result holds for one client: how much text at a time, whether
 * images go as image blocks, whether results carry `resource_link`s, and
 * whether the original bytes of a small binary travel too. Most of it is
 * the same for every client; where a client is known to cut, drop or
 * reject something, its profile says so (README, "What the tools give a
 * model"). A setting overrides any of it per client name.
 */
export interface DeliveryProfile {
  /** Who this profile is for, as the window shows it. */
  label: string;
  textBudget: number;
  imageMaxSide: number;
  imageMaxBytes: number;
  /** Images as `image` content blocks; false: described in text. */
  images: boolean;
  /** `resource_link` items beside text results (clients of revisions before 2025-06-18 would reject them). */
  links: boolean;
  /** Also embed a small binary's or document's original bytes as a resource (clients that attach resources themselves). */
  embedOriginals: boolean;
  /** Images are scaled to at most this many pixels too (the area vision models take without scaling again), not only to the long side. */
  imageMaxPixels: number;
  /** The client shows MCP Apps: the in-chat app's own tools (shelf_app_*) are listed to it. */
  apps: boolean;
}

/**
 * Pixels an image is sent with at most: about what vision models take
 * without scaling again (Claude: about 1.15 MP, e.g. 1568×735 or 1092×1092).
 */
export const IMAGE_MAX_PIXELS = 1_150_000;

/** The MCP Apps extension a client declares in its capabilities (SEP-1865). */
const APPS_EXTENSION = 'io.modelcontextprotocol/ui';

/** Whether capabilities a client declared (initialize, or a modern request's envelope) say it shows MCP Apps. */
export function declaresApps(capabilities: unknown): boolean {
  const extensions = (capabilities as { extensions?: unknown } | null | undefined)?.extensions;
  return typeof extensions === 'object' && extensions !== null && APPS_EXTENSION in extensions;
}

/** Originals embedded at most this large (base64 adds a third). */
export const MAX_EMBEDDED_BYTES = 1024 * 1024;

interface KnownClient {
  match: RegExp;
  label: string;
  /** Characters of text a result holds at most for this client. */
  textBudget?: number;
  embedOriginals?: boolean;
  /** Shows MCP Apps whether or not it declares the extension (../shared/CLIENTS.md). */
  apps?: boolean;
}

/**
 * Clients whose handling of tool results is known (../shared/CLIENTS.md and
 * their issue trackers), by the name they declare in clientInfo.
 */
const KNOWN: KnownClient[] = [
  // Claude Code cuts tool output at 25,000 tokens by default (MAX_MCP_OUTPUT_TOKENS); code runs about 3 characters a token.
  { match: /^claude-code$/i, label: 'Claude Code', textBudget: 75_000 },
  // Claude Desktop and claude.ai reject or drop PDF blobs: never embedded (the default).
  { match: /^claude-ai$/i, label: 'Claude Desktop / claude.ai', apps: true },
  // VS Code and the Inspector let the person open or save an embedded resource. VS Code shows apps without declaring the extension.
  { match: /^visual studio code/i, label: 'VS Code', embedOriginals: true, apps: true },
  { match: /inspector/i, label: 'MCP Inspector', embedOriginals: true },
  { match: /^cursor/i, label: 'Cursor', apps: true },
  { match: /^codex/i, label: 'Codex' },
  { match: /^gemini/i, label: 'Gemini CLI' },
  { match: /^goose/i, label: 'Goose', apps: true },
  { match: /^openai-mcp$/i, label: 'ChatGPT', apps: true },
];

/** The first revision with `resource_link` content. */
const LINKS_SINCE = '2025-06-18';

/**
 * The profile for a client that declared `name` and speaks `protocolVersion`:
 * the one place that decides what a client is given and told (budget,
 * images, links, app tools). `declaredApps`: its capabilities name the
 * MCP Apps extension.
 */
export function profileFor(
  client: { name: string | null; protocolVersion: string | null; declaredApps?: boolean },
  settings: DeliverySettings,
): DeliveryProfile {
  const known = client.name ? KNOWN.find((k) => k.match.test(client.name as string)) : undefined;
  const base: DeliveryProfile = {
    label: known?.label ?? 'Any other client',
    textBudget: Math.min(settings.textBudget, known?.textBudget ?? Number.POSITIVE_INFINITY),
    imageMaxSide: settings.imageMaxSide,
    imageMaxBytes: settings.imageMaxBytes,
    images: true,
    // An unknown revision (null) is a modern one: only revisions before 2025-06-18 lack links.
    links: client.protocolVersion === null || client.protocolVersion >= LINKS_SINCE,
    embedOriginals: known?.embedOriginals ?? false,
    imageMaxPixels: IMAGE_MAX_PIXELS,
    apps: (known?.apps ?? false) || client.declaredApps === true,
  };
  const override = client.name
    ? Object.entries(settings.clients).find(([name]) => name.toLowerCase() === (client.name as string).toLowerCase())?.[1]
    : undefined;
  if (!override) return base;
  return {
    ...base,
    ...(override.textBudget !== undefined ? { textBudget: override.textBudget } : {}),
    ...(override.images !== undefined ? { images: override.images } : {}),
    ...(override.links !== undefined ? { links: override.links } : {}),
    ...(override.embedOriginals !== undefined ? { embedOriginals: override.embedOriginals } : {}),
    label: `${base.label} (your settings)`,
  };
}
