// npm start: build, then launch the desktop app, or say plainly why it cannot run here.
import { spawn, spawnSync } from 'node:child_process';

import { electronBinary } from './electron-binary.mjs';

const bin = electronBinary();
if (!bin.path) {
  process.stderr.write(`mcp-shelf: cannot start the desktop app: ${bin.reason}\n`);
  process.exit(1);
}
const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' });
if (build.status !== 0) process.exit(build.status ?? 1);
const app = spawn(bin.path, ['.', ...process.argv.slice(2)], { stdio: 'inherit' });
app.on('exit', (code) => process.exit(code ?? 0));
