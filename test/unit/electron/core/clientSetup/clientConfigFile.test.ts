import os from 'node:os';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { configFilePath } from '../../../../../electron/core/clientSetup/clientConfigFile.js';

describe('configFilePath', () => {
  it('knows each client’s standard config location', () => {
    const h = os.homedir();
    expect(configFilePath('claude-desktop', {}, 'darwin')).toBe(path.join(h, 'Library/Application Support/Claude/claude_desktop_config.json'));
    expect(configFilePath('claude-desktop', { APPDATA: 'C:\\Users\\me\\AppData\\Roaming' }, 'win32')).toBe(
      path.join('C:\\Users\\me\\AppData\\Roaming', 'Claude', 'claude_desktop_config.json'),
    );
    expect(configFilePath('vscode', {}, 'linux')).toBe(path.join(h, '.config/Code/User/mcp.json'));
    expect(configFilePath('cursor', {}, 'darwin')).toBe(path.join(h, '.cursor/mcp.json'));
  });
});
