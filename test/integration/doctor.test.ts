import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DoctorReport } from '../../shared/shelfApi.js';
import { docx } from '../support/documents.js';
import { makeTree } from '../support/fixtures.js';
import { CLI, runCli, type ShelfProcess, startShelf } from '../support/shelfProcess.js';

// A 2×2 PNG: an image the read tool hands a model as an image.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==', 'base64');

/**
 * `mcp-shelf doctor` against fake client homes: every config format the app
 * writes (`mcp-shelf config …`), one entry broken by hand and one naming a
 * socket nothing listens at. The Doctor runs each entry's command as the
 * client would and reports each step; it writes nothing.
 */
describe('mcp-shelf doctor', () => {
  let base: string;
  let folder: string;
  let shelf: ShelfProcess;
  let env: NodeJS.ProcessEnv;
  let project: string;
  const reports = new Map<string, DoctorReport>();
  let exitCode: number | null;
  let before: Map<string, string>;

  const configFiles = async (): Promise<Map<string, string>> => {
    const out = new Map<string, string>();
    for (const entry of await readdir(base, { withFileTypes: true, recursive: true })) {
      const full = path.join(entry.parentPath, entry.name);
      if (entry.isFile() && !full.startsWith(folder)) out.set(full, await readFile(full, 'utf8'));
    }
    return out;
  };

  beforeAll(async () => {
    base = await mkdtemp(path.join(os.tmpdir(), 'doctor-'));
    folder = await makeTree({ 'notes.txt': 'hello\n', 'photo.png': PNG, 'report.docx': await docx(['Quarterly figures']) });
    shelf = await startShelf([folder]);
    const home = path.join(base, 'home');
    project = path.join(base, 'project');
    env = { HOME: home, XDG_CONFIG_HOME: path.join(base, 'xdg'), APPDATA: path.join(base, 'appdata'), LOCALAPPDATA: path.join(base, 'localappdata') };
    await mkdir(project, { recursive: true });
    const config = async (client: string, socket = shelf.socketPath) => {
      const made = await runCli(['config', client, '--socket', socket, '--project', project], undefined, env);
      expect(made.code, made.stderr).toBe(0);
    };
    for (const client of ['claude-desktop', 'vscode', 'cursor', 'claude-code', 'vscode-workspace', 'cursor-project']) await config(client);
    // One broken by hand (the script it runs moved), one naming a socket where no shelf listens.
    await config('windsurf');
    const windsurf = path.join(home, '.codeium/windsurf/mcp_config.json');
    await writeFile(windsurf, (await readFile(windsurf, 'utf8')).replace('cli.js', 'moved-away.js'));
    await config('gemini-cli', path.join(base, 'no-shelf.sock'));
    before = await configFiles();
    const run = await runCli(['doctor', '--json', '--project', project], undefined, env);
    exitCode = run.code;
    for (const r of JSON.parse(run.stdout) as DoctorReport[]) reports.set(r.target, r);
  }, 120_000);
  afterAll(async () => {
    await shelf?.stop();
    await rm(base, { recursive: true, force: true });
    await rm(folder, { recursive: true, force: true });
  });

  const stepsOf = (target: string) => Object.fromEntries((reports.get(target)?.steps ?? []).map((s) => [s.id, s.status]));

  it('finds every client config written, and passes each working one end to end (list, read, image and document)', () => {
    expect([...reports.keys()].sort()).toEqual([
      'claude-code',
      'claude-desktop',
      'cursor',
      'cursor-project',
      'gemini-cli',
      'vscode',
      'vscode-workspace',
      'windsurf',
    ]);
    for (const target of ['claude-desktop', 'vscode', 'cursor', 'claude-code', 'vscode-workspace', 'cursor-project']) {
      expect(stepsOf(target), target).toEqual({
        config: 'pass',
        entry: 'pass',
        command: 'pass',
        socket: 'pass',
        connect: 'pass',
        list: 'pass',
        read: 'pass',
        image: 'pass',
        document: 'pass',
        shows: 'info',
      });
      expect(reports.get(target)?.ok).toBe(true);
    }
    expect(reports.get('vscode')?.file).toBe(path.join(env.XDG_CONFIG_HOME as string, 'Code/User/mcp.json'));
    expect(reports.get('claude-code')?.file).toBe(path.join(project, '.mcp.json'));
    expect(reports.get('cursor')?.steps.find((s) => s.id === 'shows')?.detail).toMatch(/tools only/);
  });

  it('reports the broken entry and the missing socket red, with the fix, and exits 1', () => {
    expect(exitCode).toBe(1);
    expect(reports.get('windsurf')?.ok).toBe(false);
    expect(stepsOf('windsurf')).toEqual({ config: 'pass', entry: 'pass', command: 'fail' });
    expect(reports.get('windsurf')?.steps.at(-1)).toMatchObject({
      detail: expect.stringMatching(/moved-away\.js does not exist/) as unknown,
      fix: { action: 'rewrite-entry' },
    });
    expect(reports.get('gemini-cli')?.ok).toBe(false);
    expect(stepsOf('gemini-cli')).toMatchObject({ socket: 'fail', connect: 'fail' });
    expect(reports.get('gemini-cli')?.steps.find((s) => s.id === 'connect')).toMatchObject({
      detail: expect.stringMatching(/MCP Shelf is not running/) as unknown,
      fix: { text: expect.stringMatching(/Start MCP Shelf/) as unknown },
    });
  });

  it('wrote nothing: every config file is as it was, and no backup appeared', async () => {
    expect(await configFiles()).toEqual(before);
  });

  it('never runs a project entry that is not this MCP Shelf’s bridge (a cloned repository’s file may come from anyone)', async () => {
    const foreign = await mkdtemp(path.join(os.tmpdir(), 'doctor-repo-'));
    try {
      const marker = path.join(foreign, 'ran');
      await writeFile(path.join(foreign, 'payload.js'), `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'x')`);
      await writeFile(
        path.join(foreign, '.mcp.json'),
        JSON.stringify({ mcpServers: { 'mcp-shelf': { command: process.execPath, args: [path.join(foreign, 'payload.js')] } } }),
      );
      const run = await runCli(['doctor', '--json', '--project', foreign], undefined, {
        ...env,
        HOME: path.join(foreign, 'no-home'),
        XDG_CONFIG_HOME: path.join(foreign, 'no-xdg'),
      });
      const report = (JSON.parse(run.stdout) as DoctorReport[]).find((r) => r.file === path.join(foreign, '.mcp.json'));
      expect(report?.steps.at(-1)).toMatchObject({
        id: 'command',
        status: 'fail',
        detail: expect.stringMatching(/not this MCP Shelf's bridge.*not run/) as unknown,
      });
      await expect(readFile(marker)).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      await rm(foreign, { recursive: true, force: true });
    }
  });

  it('runs our own bridge for a project entry without the env the project file gives (NODE_OPTIONS would run its code)', async () => {
    const foreign = await mkdtemp(path.join(os.tmpdir(), 'doctor-env-'));
    try {
      const marker = path.join(foreign, 'ran');
      const payload = path.join(foreign, 'payload.cjs');
      await writeFile(payload, `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'x')`);
      const entry = { command: process.execPath, args: [CLI, 'connect', '--socket', shelf.socketPath], env: { NODE_OPTIONS: `--require ${payload}` } };
      await writeFile(path.join(foreign, '.mcp.json'), JSON.stringify({ mcpServers: { 'mcp-shelf': entry } }));
      const run = await runCli(['doctor', '--json', '--project', foreign], undefined, {
        ...env,
        HOME: path.join(foreign, 'no-home'),
        XDG_CONFIG_HOME: path.join(foreign, 'no-xdg'),
      });
      const report = (JSON.parse(run.stdout) as DoctorReport[]).find((r) => r.file === path.join(foreign, '.mcp.json'));
      expect(report?.steps.find((s) => s.id === 'command')).toMatchObject({ status: 'pass' });
      await expect(readFile(marker)).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      await rm(foreign, { recursive: true, force: true });
    }
  });

  it('runs a project entry only when it is exactly our bridge: our CLI with another command (serve, config) is not run', async () => {
    const foreign = await mkdtemp(path.join(os.tmpdir(), 'doctor-argv-'));
    try {
      const home = path.join(foreign, 'home');
      await mkdir(path.join(home, '.codeium', 'windsurf'), { recursive: true });
      const planted = path.join(foreign, 'planted-config');
      const entries = {
        serve: [CLI, 'serve', '--http', '0', '--config-dir', planted, '--socket', path.join(foreign, 'p.sock'), foreign],
        config: [CLI, 'config', 'windsurf', '--socket', path.join(foreign, 'attacker.sock')],
        extra: [CLI, 'connect', '--socket', shelf.socketPath, '--help'],
      };
      for (const [name, args] of Object.entries(entries)) {
        await writeFile(path.join(foreign, '.mcp.json'), JSON.stringify({ mcpServers: { 'mcp-shelf': { command: process.execPath, args } } }));
        const run = await runCli(['doctor', '--json', '--project', foreign, '--step-timeout', '3'], undefined, {
          ...env,
          HOME: home,
          XDG_CONFIG_HOME: path.join(foreign, 'xdg'),
        });
        const report = (JSON.parse(run.stdout) as DoctorReport[]).find((r) => r.file === path.join(foreign, '.mcp.json'));
        expect(
          report?.steps.find((s) => s.id === 'command'),
          name,
        ).toMatchObject({ status: 'fail', detail: expect.stringMatching(/not this MCP Shelf's bridge/) as unknown });
      }
      await expect(readdir(planted)).rejects.toMatchObject({ code: 'ENOENT' });
      await expect(readFile(path.join(home, '.codeium', 'windsurf', 'mcp_config.json'))).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      await rm(foreign, { recursive: true, force: true });
    }
  });

  it('gives up on a command that never answers after the step’s deadline, and goes on', async () => {
    const silent = await mkdtemp(path.join(os.tmpdir(), 'doctor-silent-'));
    try {
      await mkdir(path.join(silent, '.cursor'));
      const entry = { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)', '--', '--socket', shelf.socketPath] };
      await writeFile(path.join(silent, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { 'mcp-shelf': entry } }));
      const run = await runCli(['doctor', '--json', '--step-timeout', '1'], undefined, { HOME: silent, XDG_CONFIG_HOME: path.join(silent, 'xdg') });
      const [report] = JSON.parse(run.stdout) as DoctorReport[];
      expect(report?.steps.find((s) => s.id === 'connect')).toMatchObject({
        status: 'fail',
        detail: expect.stringMatching(/no answer to initialize within 1 s/) as unknown,
      });
      expect(run.code).toBe(1);
    } finally {
      await rm(silent, { recursive: true, force: true });
    }
  }, 30_000);

  it('speaks 2026-07-28 when asked, with the same result, and exits 0 when every client found passes', async () => {
    const only = await mkdtemp(path.join(os.tmpdir(), 'doctor-one-'));
    try {
      const oneEnv = { ...env, HOME: only, XDG_CONFIG_HOME: path.join(only, 'xdg') };
      expect((await runCli(['config', 'cursor', '--socket', shelf.socketPath], undefined, oneEnv)).code).toBe(0);
      const run = await runCli(['doctor', '--json', '--revision', '2026-07-28'], undefined, oneEnv);
      expect(run.code, run.stdout).toBe(0);
      const [report] = JSON.parse(run.stdout) as DoctorReport[];
      expect(report).toMatchObject({ target: 'cursor', revision: '2026-07-28', ok: true });
      expect(report?.steps.find((s) => s.id === 'connect')?.label).toMatch(/server\/discover, 2026-07-28/);
      const none = await runCli(['doctor'], undefined, { ...oneEnv, HOME: path.join(only, 'empty') });
      expect(none.code).toBe(1);
      expect(none.stdout).toMatch(/No MCP client config found/);
      expect((await runCli(['doctor', '--revision', '1999'], undefined, oneEnv)).code).toBe(2);
    } finally {
      await rm(only, { recursive: true, force: true });
    }
  }, 60_000);
});
