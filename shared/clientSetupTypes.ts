/**
 * Client setup, as ShelfApi carries it: the config snippets, the one-click
 * setup's outcome and the Compatibility Doctor's reports.
 */

export type ClientKind =
  | 'claude-desktop'
  | 'claude-desktop-bundle'
  | 'vscode'
  | 'cursor'
  | 'claude-code'
  | 'claude-code-project'
  | 'windsurf'
  | 'gemini-cli'
  | 'codex'
  | 'goose'
  | 'vscode-http'
  | 'claude-code-http'
  | 'cursor-http';

export interface ClientConfigSnippet {
  client: ClientKind;
  title: string;
  /** Where the snippet goes (a config file), or null for a command line. */
  location: string | null;
  language: 'json' | 'shell' | 'toml' | 'yaml';
  text: string;
}

/**
 * Client configs MCP Shelf can edit for you: a client's user config, or a
 * project's (`claude-code`: the project's `.mcp.json`; `vscode-workspace`:
 * `.vscode/mcp.json`; `cursor-project`: `.cursor/mcp.json`).
 */
export type SetupClient = 'claude-desktop' | 'claude-code' | 'vscode' | 'vscode-workspace' | 'cursor' | 'cursor-project' | 'windsurf' | 'gemini-cli';

/** What a Compatibility Doctor step found: pass, fail, not applicable, or a fact to know. */
export type DoctorStatus = 'pass' | 'fail' | 'skip' | 'info';

export interface DoctorStep {
  /** config, entry, command, socket, connect, list, read, image, document, shows */
  id: string;
  label: string;
  status: DoctorStatus;
  detail: string;
  /** How to put it right; `action` when the window can do it in one click. */
  fix?: { text: string; action?: 'rewrite-entry' };
}

/** One client config the Doctor found on this machine, and what its checks and round trip showed. */
export interface DoctorReport {
  target: SetupClient;
  client: string;
  file: string;
  /** The protocol revision the round trip spoke (the one this client uses). */
  revision: string;
  ok: boolean;
  steps: DoctorStep[];
}

/**
 * One-click client setup: the file written (with its backup), or why it was
 * not, with the snippet to paste by hand.
 */
export type ClientSetupResult =
  | { ok: true; file: string; backup: string | null; action: 'added' | 'updated' | 'unchanged'; content: string }
  | { ok: false; file: string; error: string; snippet: string };
