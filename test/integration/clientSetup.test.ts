import { lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { CLI, runCli } from '../support/shelfProcess.js';

let home: string;
const env = () => ({ HOME: home, XDG_CONFIG_HOME: '', APPDATA: '' });
const config = (...args: string[]) => runCli(['config', ...args, '--socket', '/run/shelf.sock'], undefined, env());
const expectedEntry = { command: process.execPath, args: [CLI, 'connect', '--socket', '/run/shelf.sock'] };

beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'home-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('mcp-shelf config (one-click client setup, headless)', () => {
  it('creates a new file with the entry', async () => {
    const { code } = await config('claude-desktop');
    expect(code).toBe(0);
    const file = path.join(home, '.config/Claude/claude_desktop_config.json');
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ mcpServers: { 'mcp-shelf': expectedEntry } });
    expect(await readdir(path.dirname(file))).toEqual(['claude_desktop_config.json']); // nothing to back up
  });

  it('adds to an existing file, keeping other servers and keys, after a backup', async () => {
    const file = path.join(home, '.cursor/mcp.json');
    await mkdir(path.dirname(file), { recursive: true });
    const before = JSON.stringify({ theme: 'dark', mcpServers: { other: { command: 'other-server', args: ['--x'] } } }, null, 2);
    await writeFile(file, before);
    const { code, stderr } = await config('cursor');
    expect(code).toBe(0);
    expect(stderr).toMatch(/added the mcp-shelf entry \(backup: .*mcp\.json\.bak-/);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      theme: 'dark',
      mcpServers: { other: { command: 'other-server', args: ['--x'] }, 'mcp-shelf': expectedEntry },
    });
    const backups = (await readdir(path.dirname(file))).filter((f) => f.startsWith('mcp.json.bak-'));
    expect(backups).toHaveLength(1);
    expect(await readFile(path.join(path.dirname(file), backups[0] as string), 'utf8')).toBe(before);
  });

  it('reads past a byte order mark and keeps it; edits a linked config where it leads; refuses a dangling link', async () => {
    const file = path.join(home, '.cursor/mcp.json');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, `\uFEFF${JSON.stringify({ mcpServers: {} })}`);
    expect((await config('cursor')).code).toBe(0);
    const text = await readFile(file, 'utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    expect(JSON.parse(text.slice(1))).toEqual({ mcpServers: { 'mcp-shelf': expectedEntry } });

    const real = path.join(home, 'dotfiles', 'claude.json');
    await mkdir(path.dirname(real), { recursive: true });
    await writeFile(real, '{}');
    const linked = path.join(home, '.config/Claude/claude_desktop_config.json');
    await mkdir(path.dirname(linked), { recursive: true });
    await symlink(real, linked);
    expect((await config('claude-desktop')).code).toBe(0);
    expect((await lstat(linked)).isSymbolicLink()).toBe(true); // the link stays a link
    expect(JSON.parse(await readFile(real, 'utf8'))).toEqual({ mcpServers: { 'mcp-shelf': expectedEntry } });

    const vscode = path.join(home, '.config/Code/User/mcp.json');
    await mkdir(path.dirname(vscode), { recursive: true });
    await symlink(path.join(home, 'nowhere.json'), vscode);
    const dangling = await config('vscode');
    expect(dangling.code).not.toBe(0);
    expect(dangling.stderr).toMatch(/link to a file that does not exist/);
    expect((await lstat(vscode)).isSymbolicLink()).toBe(true);
  });

  it('updates an existing entry, and leaves an up-to-date one alone', async () => {
    const file = path.join(home, '.config/Code/User/mcp.json');
    await mkdir(path.dirname(file), { recursive: true });
    // VS Code's mcp.json is JSONC: comments and other entries must survive.
    await writeFile(
      file,
      '{\n  // my servers\n  "servers": {\n    "mcp-shelf": { "type": "stdio", "command": "old-node", "args": [] },\n    "keep": { "type": "http", "url": "http://x" }\n  }\n}\n',
    );
    expect((await config('vscode')).stderr).toMatch(/updated the mcp-shelf entry/);
    const text = await readFile(file, 'utf8');
    expect(text).toContain('// my servers');
    expect(text).toContain('"keep"');
    expect(text).toContain(`"command": "${process.execPath}"`);
    expect(text).not.toContain('old-node');
    const again = await config('vscode');
    expect(again.stderr).toMatch(/already up to date/);
    expect((await readdir(path.dirname(file))).filter((f) => f.includes('.bak-'))).toHaveLength(1);
  });

  it('never overwrites a malformed file: exit 1, the error, and the snippet to paste', async () => {
    const file = path.join(home, '.cursor/mcp.json');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, '{"mcpServers": {"a": ');
    const { code, stderr } = await config('cursor');
    expect(code).toBe(1);
    expect(stderr).toMatch(/is not valid JSON .* it was left as it is/);
    expect(stderr).toContain('"mcp-shelf"');
    expect(await readFile(file, 'utf8')).toBe('{"mcpServers": {"a": ');
    expect(await readdir(path.dirname(file))).toEqual(['mcp.json']);
  });

  it('--print shows the result and writes nothing; bad usage exits 2', async () => {
    const { code, stdout } = await config('claude-desktop', '--print');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ mcpServers: { 'mcp-shelf': expectedEntry } });
    await expect(readdir(path.join(home, '.config'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await runCli(['config', 'emacs'], undefined, env())).code).toBe(2);
    expect((await runCli(['config'], undefined, env())).code).toBe(2);
  });
});
