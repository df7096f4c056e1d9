import { readdir, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import type { SetupClient } from '../../../shared/shelfApi.js';

/**
 * The clients whose MCP config format is documented and stable, where each
 * keeps it, and what each does with a server's files (shared/CLIENTS.md).
 * Sources: Claude Desktop and Claude Code (code.claude.com/docs/en/mcp:
 * `mcpServers`, a project's `.mcp.json`), the Microsoft Store build's
 * virtualised folder (`%LOCALAPPDATA%\Packages\Claude_<id>\LocalCache\Roaming\Claude`,
 * anthropics/claude-code#25579), VS Code (`servers` with `type`), Cursor
 * (`~/.cursor/mcp.json`, `.cursor/mcp.json`), Windsurf
 * (`~/.codeium/windsurf/mcp_config.json`, docs.windsurf.com/windsurf/cascade/mcp),
 * Gemini CLI (`~/.gemini/settings.json`, geminicli.com/docs/tools/mcp-server).
 * Codex (TOML) and Goose (YAML) are not edited: keeping the rest of those
 * files needs an editor for their formats. Codex gets a snippet and its own
 * `codex mcp add` line, Goose its extensions entry (clientConfigs.ts).
 */
export interface ClientTarget {
  id: SetupClient;
  /** The client's name, as a person knows it. */
  client: string;
  /** The key that holds servers in the file. */
  key: 'mcpServers' | 'servers';
  /** Entries carry `"type": "stdio"` (VS Code requires it; Claude Code's .mcp.json writes it). */
  typed: boolean;
  /** A project's file (needs a project folder) rather than the user's. */
  project: boolean;
  /** The revision the client speaks to a stdio server today (the Doctor's round trip speaks it). */
  revision: '2025-11-25' | '2026-07-28';
  /** What the client does with a server's files, said by the Doctor. */
  shows: string;
}

export const CLIENT_TARGETS: readonly ClientTarget[] = [
  {
    id: 'claude-desktop',
    client: 'Claude Desktop',
    key: 'mcpServers',
    typed: false,
    project: false,
    revision: '2025-11-25',
    shows: 'resources to the person (attach), tools to the model, MCP Apps in the chat',
  },
  {
    id: 'claude-code',
    client: 'Claude Code (project .mcp.json)',
    key: 'mcpServers',
    typed: true,
    project: true,
    revision: '2025-11-25',
    shows: 'resources to the person (@ mentions) and to the model (list/read tools), tools; no apps',
  },
  {
    id: 'vscode',
    client: 'VS Code',
    key: 'servers',
    typed: true,
    project: false,
    revision: '2025-11-25',
    shows: 'resources to the person (Add Context) and partly to the model, templates, tools, MCP Apps',
  },
  {
    id: 'vscode-workspace',
    client: 'VS Code (workspace)',
    key: 'servers',
    typed: true,
    project: true,
    revision: '2025-11-25',
    shows: 'resources to the person (Add Context) and partly to the model, templates, tools, MCP Apps',
  },
  {
    id: 'cursor',
    client: 'Cursor',
    key: 'mcpServers',
    typed: false,
    project: false,
    revision: '2025-11-25',
    shows: 'tools only (no resources), MCP Apps in the chat',
  },
  {
    id: 'cursor-project',
    client: 'Cursor (project)',
    key: 'mcpServers',
    typed: false,
    project: true,
    revision: '2025-11-25',
    shows: 'tools only (no resources), MCP Apps in the chat',
  },
  { id: 'windsurf', client: 'Windsurf', key: 'mcpServers', typed: false, project: false, revision: '2025-11-25', shows: 'tools only (no resources, no apps)' },
  {
    id: 'gemini-cli',
    client: 'Gemini CLI',
    key: 'mcpServers',
    typed: false,
    project: false,
    revision: '2025-11-25',
    shows: 'resources to the person (@) and to the model (list/read tools), tools; no apps',
  },
];

export function targetOf(id: SetupClient): ClientTarget {
  return CLIENT_TARGETS.find((t) => t.id === id) as ClientTarget;
}

export interface Place {
  env?: NodeJS.ProcessEnv;
  platform?: string;
  /** The project folder, for project configs. */
  project?: string | null;
}

const homeOf = (env: NodeJS.ProcessEnv, platform: string): string => (platform === 'win32' ? env.USERPROFILE : env.HOME) || os.homedir();

/** Where a desktop app keeps user data on this OS (Electron's appData). */
function userDataDir(env: NodeJS.ProcessEnv, platform: string): string {
  const home = homeOf(env, platform);
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support');
  if (platform === 'win32') return env.APPDATA || path.join(home, 'AppData', 'Roaming');
  return env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(home, '.config');
}

/** The classic (non-Store) config file of each client; a project file for project targets. */
export function configFilePath(
  client: SetupClient,
  env: NodeJS.ProcessEnv = process.env,
  platform: string = process.platform,
  project: string = process.cwd(),
): string {
  const home = homeOf(env, platform);
  switch (client) {
    case 'claude-desktop':
      return path.join(userDataDir(env, platform), 'Claude', 'claude_desktop_config.json');
    case 'claude-code':
      return path.join(project, '.mcp.json');
    case 'vscode':
      return path.join(userDataDir(env, platform), 'Code', 'User', 'mcp.json');
    case 'vscode-workspace':
      return path.join(project, '.vscode', 'mcp.json');
    case 'cursor':
      return path.join(home, '.cursor', 'mcp.json');
    case 'cursor-project':
      return path.join(project, '.cursor', 'mcp.json');
    case 'windsurf':
      return path.join(home, '.codeium', 'windsurf', 'mcp_config.json');
    case 'gemini-cli':
      return path.join(home, '.gemini', 'settings.json');
  }
}

const isDir = async (p: string) => (await stat(p).catch(() => null))?.isDirectory() ?? false;

/**
 * Claude Desktop from the Microsoft Store (MSIX) reads its config only in its
 * package's virtualised folder; the classic path is never read there. The
 * package folder is `Claude_<publisher id>`; it counts once it has
 * `LocalCache\Roaming` (an installed, started app, not leftovers).
 */
export async function msixClaudeConfig(env: NodeJS.ProcessEnv = process.env, platform: string = process.platform): Promise<string | null> {
  if (platform !== 'win32' || !env.LOCALAPPDATA) return null;
  const packages = path.join(env.LOCALAPPDATA, 'Packages');
  const names = await readdir(packages).catch(() => [] as string[]);
  for (const name of names.filter((n) => /^Claude_[a-z0-9]+$/i.test(n)).sort()) {
    const roaming = path.join(packages, name, 'LocalCache', 'Roaming');
    if (await isDir(roaming)) return path.join(roaming, 'Claude', 'claude_desktop_config.json');
  }
  return null;
}

/** The file the client actually reads: for Claude Desktop the Store build's when it is installed. */
export async function resolveConfigFile(client: SetupClient, place: Place = {}): Promise<string> {
  const env = place.env ?? process.env;
  const platform = place.platform ?? process.platform;
  if (client === 'claude-desktop') {
    const msix = await msixClaudeConfig(env, platform);
    if (msix) return msix;
  }
  return configFilePath(client, env, platform, place.project ?? undefined);
}

/**
 * Whether the client is on this machine, judged by the folder it keeps its
 * config in (or the project file, for project configs).
 */
export async function clientPresent(client: SetupClient, file: string): Promise<boolean> {
  const target = targetOf(client);
  if (target.project) return (await stat(file).catch(() => null)) !== null;
  return isDir(path.dirname(file));
}
