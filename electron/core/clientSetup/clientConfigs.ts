import type { ClientConfigSnippet } from '../../../shared/shelfApi.js';

export interface BridgeCommand {
  command: string;
  args: string[];
  /** Extra environment the command needs, if any. */
  env?: Record<string, string>;
}

/** The bridge as a source checkout runs it: this Node and the built CLI. */
export function nodeBridgeCommand(nodePath: string, cliPath: string, socketPath: string): BridgeCommand {
  return { command: nodePath, args: [cliPath, 'connect', '--socket', socketPath] };
}

/**
 * The bridge as the installed app runs it: its own executable with
 * `--mcp-bridge` (handled before anything else starts; no Node mode, so
 * Electron's runAsNode fuse is off).
 */
export function appBridgeCommand(executable: string, socketPath: string): BridgeCommand {
  return { command: executable, args: ['--mcp-bridge', '--socket', socketPath] };
}

type Located = 'claude-desktop' | 'vscode' | 'cursor' | 'windsurf' | 'gemini-cli';

function configLocations(platform: string): Record<Located, string> {
  if (platform === 'darwin') {
    return {
      'claude-desktop': '~/Library/Application Support/Claude/claude_desktop_config.json',
      vscode: '~/Library/Application Support/Code/User/mcp.json',
      cursor: '~/.cursor/mcp.json',
      windsurf: '~/.codeium/windsurf/mcp_config.json',
      'gemini-cli': '~/.gemini/settings.json',
    };
  }
  if (platform === 'win32') {
    return {
      // The Microsoft Store build reads only its package's copy.
      'claude-desktop': '%APPDATA%\\Claude\\claude_desktop_config.json (Store build: %LOCALAPPDATA%\\Packages\\Claude_…\\LocalCache\\Roaming\\Claude\\)',
      vscode: '%APPDATA%\\Code\\User\\mcp.json',
      cursor: '%USERPROFILE%\\.cursor\\mcp.json',
      windsurf: '%USERPROFILE%\\.codeium\\windsurf\\mcp_config.json',
      'gemini-cli': '%USERPROFILE%\\.gemini\\settings.json',
    };
  }
  return {
    'claude-desktop': '~/.config/Claude/claude_desktop_config.json',
    vscode: '~/.config/Code/User/mcp.json',
    cursor: '~/.cursor/mcp.json',
    windsurf: '~/.codeium/windsurf/mcp_config.json',
    'gemini-cli': '~/.gemini/settings.json',
  };
}

/** POSIX-shell quoting for the one command-line snippet. */
function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** Streamable HTTP, when it is on: the URL and the bearer token clients send. */
export interface HttpAccess {
  url: string;
  token: string | null;
}

/**
 * Ready-to-paste configuration for each popular client, all launching the
 * bridge; plus, when HTTP is on, the clients that can send headers.
 */
export function clientConfigs(bridge: BridgeCommand, platform: string, http: HttpAccess | null = null): ClientConfigSnippet[] {
  const where = configLocations(platform);
  const stdio = { command: bridge.command, args: bridge.args, ...(bridge.env ? { env: bridge.env } : {}) };
  const json = (v: unknown) => JSON.stringify(v, null, 2);
  const envFlags = Object.entries(bridge.env ?? {}).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  return [
    {
      client: 'claude-desktop',
      title: 'Claude Desktop',
      location: where['claude-desktop'],
      language: 'json',
      text: json({ mcpServers: { 'mcp-shelf': stdio } }),
    },
    {
      // Claude Desktop installs an MCP Bundle in one click (Settings → Extensions, or open the file).
      client: 'claude-desktop-bundle',
      title: 'Claude Desktop (one-click bundle)',
      location: null,
      language: 'shell',
      text: 'npm run mcpb   # in the MCP Shelf folder; then open release/mcp-shelf.mcpb with Claude Desktop',
    },
    {
      client: 'vscode',
      title: 'VS Code',
      location: where.vscode,
      language: 'json',
      text: json({ servers: { 'mcp-shelf': { type: 'stdio', ...stdio } } }),
    },
    {
      client: 'cursor',
      title: 'Cursor',
      location: where.cursor,
      language: 'json',
      text: json({ mcpServers: { 'mcp-shelf': stdio } }),
    },
    {
      client: 'claude-code',
      title: 'Claude Code',
      location: null,
      language: 'shell',
      text: ['claude', 'mcp', 'add', ...envFlags, 'mcp-shelf', '--', bridge.command, ...bridge.args].map(shellQuote).join(' '),
    },
    {
      client: 'claude-code-project',
      title: 'Claude Code (project)',
      location: '.mcp.json in the project folder',
      language: 'json',
      text: json({ mcpServers: { 'mcp-shelf': { type: 'stdio', ...stdio } } }),
    },
    {
      client: 'windsurf',
      title: 'Windsurf',
      location: where.windsurf,
      language: 'json',
      text: json({ mcpServers: { 'mcp-shelf': stdio } }),
    },
    {
      client: 'gemini-cli',
      title: 'Gemini CLI',
      location: where['gemini-cli'],
      language: 'json',
      text: json({ mcpServers: { 'mcp-shelf': stdio } }),
    },
    {
      // Codex (CLI, IDE extension, app) keeps servers as TOML tables; `codex mcp add` writes the same entry.
      client: 'codex',
      title: 'Codex',
      location: platform === 'win32' ? '%USERPROFILE%\\.codex\\config.toml' : '~/.codex/config.toml',
      language: 'toml',
      text: codexToml(bridge),
    },
    {
      // Goose's extensions (its config.yaml, as its documentation's "Configuration Files" shows a stdio one).
      client: 'goose',
      title: 'Goose',
      location: platform === 'win32' ? '%APPDATA%\\Block\\goose\\config\\config.yaml' : '~/.config/goose/config.yaml',
      language: 'yaml',
      text: gooseYaml(bridge),
    },
    ...(http ? httpSnippets(http, where) : []),
  ];
}

/** Goose's `extensions:` entry; JSON strings are YAML double-quoted scalars. */
function gooseYaml(bridge: BridgeCommand): string {
  const q = (v: string) => JSON.stringify(v);
  return [
    'extensions:',
    '  mcp-shelf:',
    '    type: stdio',
    '    name: mcp-shelf',
    '    enabled: true',
    `    cmd: ${q(bridge.command)}`,
    `    args: [${bridge.args.map(q).join(', ')}]`,
    `    envs: {${Object.entries(bridge.env ?? {})
      .map(([k, v]) => `${q(k)}: ${q(v)}`)
      .join(', ')}}`,
    '    timeout: 300',
    '',
  ].join('\n');
}

/** TOML basic strings take JSON's escapes, so a JSON string is a TOML string. */
const tomlString = (v: string) => JSON.stringify(v);

/** Codex's `[mcp_servers.mcp-shelf]` table (its config.toml), and the command that writes it. */
function codexToml(bridge: BridgeCommand): string {
  const lines = [
    `# or run: ${['codex', 'mcp', 'add', 'mcp-shelf', ...Object.entries(bridge.env ?? {}).flatMap(([k, v]) => ['--env', `${k}=${v}`]), '--', bridge.command, ...bridge.args].map(shellQuote).join(' ')}`,
    '[mcp_servers.mcp-shelf]',
    `command = ${tomlString(bridge.command)}`,
    `args = [${bridge.args.map(tomlString).join(', ')}]`,
  ];
  if (bridge.env && Object.keys(bridge.env).length > 0)
    lines.push(
      `env = { ${Object.entries(bridge.env)
        .map(([k, v]) => `${tomlString(k)} = ${tomlString(v)}`)
        .join(', ')} }`,
    );
  return `${lines.join('\n')}\n`;
}

function httpSnippets(http: HttpAccess, where: Record<Located, string>): ClientConfigSnippet[] {
  const headers = http.token ? { Authorization: `Bearer ${http.token}` } : undefined;
  const json = (v: unknown) => JSON.stringify(v, null, 2);
  return [
    {
      client: 'claude-code-http',
      title: 'Claude Code (HTTP)',
      location: null,
      language: 'shell',
      text: ['claude', 'mcp', 'add', '--transport', 'http', 'mcp-shelf', http.url, ...(headers ? ['--header', `Authorization: Bearer ${http.token}`] : [])]
        .map(shellQuote)
        .join(' '),
    },
    {
      client: 'vscode-http',
      title: 'VS Code (HTTP)',
      location: where.vscode,
      language: 'json',
      text: json({ servers: { 'mcp-shelf': { type: 'http', url: http.url, ...(headers ? { headers } : {}) } } }),
    },
    {
      client: 'cursor-http',
      title: 'Cursor (HTTP)',
      location: where.cursor,
      language: 'json',
      text: json({ mcpServers: { 'mcp-shelf': { url: http.url, ...(headers ? { headers } : {}) } } }),
    },
  ];
}
