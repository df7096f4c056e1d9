import { lstat, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * Where the server listens by default: a per-user path in a folder only the
 * user can enter. Unix socket paths are limited to ~104 bytes on macOS
 * (108 on Linux), so macOS uses the short /tmp rather than its long
 * per-user temp folder.
 */
export function defaultSocketPath(): string {
  const user = safeName(os.userInfo().username);
  if (process.platform === 'win32') return `\\\\.\\pipe\\mcp-shelf-${user}`;
  const uid = process.getuid?.() ?? user;
  const runtime = process.env.XDG_RUNTIME_DIR;
  if (process.platform === 'linux' && runtime && path.isAbsolute(runtime)) {
    return path.join(runtime, 'mcp-shelf', 'shelf.sock');
  }
  const base = process.platform === 'darwin' ? '/tmp' : os.tmpdir();
  return path.join(base, `mcp-shelf-${uid}`, 'shelf.sock');
}

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, '_') || 'user';
}

/** Longest socket path the OS accepts (bytes, without the terminating NUL). */
export const MAX_SOCKET_PATH_BYTES = process.platform === 'darwin' ? 103 : 107;

export function isPipePath(p: string): boolean {
  return process.platform === 'win32' && /^\\\\[.?]\\pipe\\/i.test(p);
}

/**
 * Creates the socket's folder (0700) when it is ours to create, and refuses a
 * folder that another user owns or others can enter: they could swap the
 * socket for their own.
 */
export async function prepareSocketDir(socketPath: string, isDefault: boolean): Promise<void> {
  if (isPipePath(socketPath)) return;
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH_BYTES) {
    throw new Error(`Socket path is too long (${Buffer.byteLength(socketPath)} bytes, at most ${MAX_SOCKET_PATH_BYTES}): ${socketPath}`);
  }
  const dir = path.dirname(socketPath);
  if (isDefault) await mkdir(dir, { recursive: true, mode: 0o700 });
  const st = await lstat(dir).catch(() => null);
  if (!st || !st.isDirectory()) throw new Error(`Socket folder does not exist: ${dir}`);
  if (isDefault && process.getuid && (st.uid !== process.getuid() || (st.mode & 0o077) !== 0)) {
    throw new Error(`Refusing to use ${dir}: it must be owned by you and closed to others (chmod 700)`);
  }
}
