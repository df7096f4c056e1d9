import { describe, expect, it } from 'vitest';

import { appBridgeCommand, clientConfigs } from '../../../../../electron/core/clientSetup/clientConfigs.js';

describe('client configs for the installed app', () => {
  it('launch the app’s own executable as the bridge: --mcp-bridge, no Node mode, no environment', () => {
    const bridge = appBridgeCommand('/Applications/MCP Shelf.app/Contents/MacOS/MCP Shelf', '/tmp/mcp-shelf-501/shelf.sock');
    const configs = clientConfigs(bridge, 'darwin');
    const claude = JSON.parse(configs.find((c) => c.client === 'claude-desktop')?.text ?? '{}') as { mcpServers: Record<string, unknown> };
    expect(claude.mcpServers['mcp-shelf']).toEqual({
      command: '/Applications/MCP Shelf.app/Contents/MacOS/MCP Shelf',
      args: ['--mcp-bridge', '--socket', '/tmp/mcp-shelf-501/shelf.sock'],
    });
    expect(configs.find((c) => c.client === 'claude-code')?.text).toBe(
      "claude mcp add mcp-shelf -- '/Applications/MCP Shelf.app/Contents/MacOS/MCP Shelf' --mcp-bridge --socket /tmp/mcp-shelf-501/shelf.sock",
    );
    expect(configs.map((c) => c.text).join('\n')).not.toMatch(/ELECTRON_RUN_AS_NODE|mcp-shelf-bridge\.cjs/);
  });
});
