import type { ClientConfigSnippet } from '../../shared/shelfApi.js';

export interface BridgeCommand {
  command: string;
  args: string[];
  /** Extra environment the command needs (ELECTRON_RUN_AS_NODE for a packaged app). */
  env?: Record<string, string>;
}

/** The bridge as a source checkout runs it: this Node and the built CLI. */
export function nodeBridgeCommand(nodePath: string, cliPath: string, socketPath: string): BridgeCommand {
  return { command: nodePath, args: [cliPath, 'connect', '--socket', socketPath] };
}

function configLocations(platform: string): Record<'claude-desktop' | 'vscode' | 'cursor', string> {
  if (platform === 'darwin') {
    return {
      'claude-desktop': '~/Library/Application Support/Claude/claude_desktop_config.json',
      vscode: '~/Library/Application Support/Code/User/mcp.json',
      cursor: '~/.cursor/mcp.json',
    };
  }
  if (platform === 'win32') {
    return {
      'claude-desktop': '%APPDATA%\\Claude\\claude_desktop_config.json',
      vscode: '%APPDATA%\\Code\\User\\mcp.json',
      cursor: '%USERPROFILE%\\.cursor\\mcp.json',
    };
  }
  return {
    'claude-desktop': '~/.config/Claude/claude_desktop_config.json',
    vscode: '~/.config/Code/User/mcp.json',
    cursor: '~/.cursor/mcp.json',
  };
}

/** POSIX-shell quoting for the one command-line snippet. */
function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** Ready-to-paste configuration for each popular client, all launching the bridge. */
export function clientConfigs(bridge: BridgeCommand, platform: string): ClientConfigSnippet[] {
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
  ];
}
