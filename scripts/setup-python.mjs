#!/usr/bin/env node
// Makes .venv-py: a Python virtual environment holding the official Python MCP
// SDK (v2), which the interop tests drive as a real client. Quick when it is
// already there; `npm test` runs it first, and so does CI on a fresh machine.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const VENV = path.join(ROOT, '.venv-py');
const PYTHON = path.join(VENV, process.platform === 'win32' ? 'Scripts/python.exe' : 'bin/python');
const REQUIREMENT = 'mcp>=2,<3';

const run = (cmd, args, opts = {}) => spawnSync(cmd, args, { stdio: 'inherit', ...opts });
const hasSdk = () => existsSync(PYTHON) && spawnSync(PYTHON, ['-c', 'import mcp.client.streamable_http'], { stdio: 'ignore' }).status === 0;

if (hasSdk()) process.exit(0);
console.log(`setup-python: creating ${path.relative(ROOT, VENV)} with ${REQUIREMENT}`);
if (!existsSync(PYTHON) && run('python3', ['-m', 'venv', VENV]).status !== 0) {
  console.error('setup-python: python3 -m venv failed (Debian: apt-get install python3-venv)');
  process.exit(1);
}
// --retries 0: where an index is unreachable, pip moves on to the next one at once instead of backing off.
const pip = run(PYTHON, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--retries', '0', REQUIREMENT]);
if (pip.status !== 0 || !hasSdk()) {
  console.error(`setup-python: could not install ${REQUIREMENT}`);
  process.exit(1);
}
