import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { configFilePath, resolveConfigFile } from '../../../../../electron/core/clientSetup/clientTargets.js';

describe('client config locations', () => {
  let local: string;
  beforeEach(async () => {
    local = await mkdtemp(path.join(os.tmpdir(), 'localappdata-'));
  });
  afterEach(async () => {
    await rm(local, { recursive: true, force: true });
  });

  it('uses the Microsoft Store build’s folder for Claude Desktop once that app has run, the classic one otherwise', async () => {
    const env = { APPDATA: '/roaming', LOCALAPPDATA: local, USERPROFILE: '/profile' };
    const classic = path.join('/roaming', 'Claude', 'claude_desktop_config.json');
    expect(await resolveConfigFile('claude-desktop', { env, platform: 'win32' })).toBe(classic);
    // A package folder without LocalCache\Roaming is a leftover, not an installed app.
    await mkdir(path.join(local, 'Packages', 'Claude_pzs8sxrjxfjjc'), { recursive: true });
    expect(await resolveConfigFile('claude-desktop', { env, platform: 'win32' })).toBe(classic);
    await mkdir(path.join(local, 'Packages', 'Claude_pzs8sxrjxfjjc', 'LocalCache', 'Roaming'), { recursive: true });
    expect(await resolveConfigFile('claude-desktop', { env, platform: 'win32' })).toBe(
      path.join(local, 'Packages', 'Claude_pzs8sxrjxfjjc', 'LocalCache', 'Roaming', 'Claude', 'claude_desktop_config.json'),
    );
    // Elsewhere the Store folder means nothing.
    expect(await resolveConfigFile('claude-desktop', { env: { ...env, HOME: '/home/me', XDG_CONFIG_HOME: '' }, platform: 'linux' })).toBe(
      '/home/me/.config/Claude/claude_desktop_config.json',
    );
  });

  it('knows the documented files of Windsurf, Gemini CLI and the project configs', () => {
    const env = { HOME: '/home/me' };
    expect(configFilePath('windsurf', env, 'linux')).toBe('/home/me/.codeium/windsurf/mcp_config.json');
    expect(configFilePath('gemini-cli', env, 'darwin')).toBe('/home/me/.gemini/settings.json');
    expect(configFilePath('claude-code', env, 'linux', '/work/p')).toBe('/work/p/.mcp.json');
    expect(configFilePath('vscode-workspace', env, 'linux', '/work/p')).toBe('/work/p/.vscode/mcp.json');
    expect(configFilePath('cursor-project', env, 'linux', '/work/p')).toBe('/work/p/.cursor/mcp.json');
  });
});
