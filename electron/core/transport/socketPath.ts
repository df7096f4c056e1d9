import { lstat, mkdir, stat } from 'node:fs/promises';
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

/**
 * Why a client must not speak to what listens at `socketPath`, or null when
 * it may (or when nothing is there: the caller finds that out). Another
 * local user who creates the socket's folder first (on macOS it is always
 * under /tmp) would receive the client's requests and answer with words of
 * their own. So, before a byte is sent:
 *
 * - the default folder must be a real folder, not a link, owned by this user
 *   and closed to others (0700), as the server makes it;
 * - a folder given with --socket must be this user's or root's, and others
 *   may write into it only if it is sticky (like /tmp), where they cannot
 *   replace a file that is not theirs;
 * - the socket must be a socket owned by this user: the owner of a socket
 *   file is the user whose process created it, so this is the peer's user
 *   as the OS records it (Node cannot ask a connected socket for it).
 *
 * Windows named pipes are not checked (Node cannot ask a pipe who serves it).
 */
export async function socketTrustProblem(socketPath: string, isDefault: boolean): Promise<string | null> {
  const uid = process.getuid?.();
  if (uid === undefined || isPipePath(socketPath)) return null;
  const dir = path.dirname(socketPath);
  const folder = await (isDefault ? lstat(dir) : stat(dir)).catch(() => null);
  if (!folder) return null;
  if (folder.isSymbolicLink()) return `its folder ${dir} is a link, not the folder MCP Shelf makes`;
  if (!folder.isDirectory()) return `${dir} is not a folder`;
  if (folder.uid !== uid && (isDefault || folder.uid !== 0)) return `its folder ${dir} belongs to another user (uid ${folder.uid})`;
  if (isDefault && (folder.mode & 0o077) !== 0)
    return `its folder ${dir} is open to other users (mode ${(folder.mode & 0o777).toString(8)}; MCP Shelf makes it 700)`;
  if (!isDefault && (folder.mode & 0o022) !== 0 && (folder.mode & 0o1000) === 0)
    return `other users can write into its folder ${dir} (mode ${(folder.mode & 0o777).toString(8)})`;
  const sock = await lstat(socketPath).catch(() => null);
  if (!sock) return null;
  if (!sock.isSocket()) return 'it is not a socket';
  if (sock.uid !== uid) return `the socket belongs to another user (uid ${sock.uid}), not to you`;
  return null;
}
