import net from 'node:net';
import type { Readable, Writable } from 'node:stream';

import { serveNotRunning } from './notRunning.js';
import { socketTrustProblem } from './socketPath.js';

export interface BridgeStreams {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
}

/** The message a client (and the person, and the model) gets when the bridge will not speak to a socket. */
export function untrustedSocketMessage(socketPath: string, why: string): string {
  return `MCP Shelf's bridge refused to connect to ${socketPath}: ${why}. Another user may have put it there to receive this client's requests. Remove it (or stop whatever made it) and start MCP Shelf again, or give a socket in a folder only you can write to with --socket.`;
}

/**
 * stdio ↔ socket bridge: what a stdio MCP client launches. Bytes are piped
 * both ways as they come (no framing, no buffering of whole messages); the
 * bridge ends when either side closes. Resolves with the exit code.
 *
 * Nothing is sent before the socket is found to be this user's (see
 * socketTrustProblem); one that is not is refused, and the client is told
 * why, as when no shelf runs.
 */
export async function runBridge(socketPath: string, io: BridgeStreams, options: { isDefault?: boolean } = {}): Promise<number> {
  const problem = await socketTrustProblem(socketPath, options.isDefault ?? false);
  if (problem !== null) {
    const message = untrustedSocketMessage(socketPath, problem);
    io.stderr.write(`mcp-shelf connect: ${message}\n`);
    await serveNotRunning(socketPath, io, message);
    return 1;
  }
  return pipe(socketPath, io);
}

function pipe(socketPath: string, io: BridgeStreams): Promise<number> {
  return new Promise((resolve) => {
    const sock = net.connect(socketPath);
    let connected = false;
    let settled = false;
    const finish = (code: number) => {
      if (settled) return;
      settled = true;
      io.stdin.unpipe(sock);
      io.stdin.pause();
      sock.destroy();
      resolve(code);
    };
    sock.once('connect', () => {
      connected = true;
      io.stdin.pipe(sock);
      sock.pipe(io.stdout, { end: false });
    });
    sock.on('error', (err: NodeJS.ErrnoException) => {
      if (!connected) {
        const why = err.code === 'ENOENT' || err.code === 'ECONNREFUSED' ? 'nothing is listening there' : err.message;
        io.stderr.write(`mcp-shelf connect: cannot reach MCP Shelf at ${socketPath}: ${why}.\n` + 'Start the app, or run: mcp-shelf serve FOLDER…\n');
        if (err.code === 'ENOENT' || err.code === 'ECONNREFUSED') {
          // Answer the client anyway, saying the shelf is not running, so the person (and the model) learn why.
          settled = true;
          sock.destroy();
          void serveNotRunning(socketPath, io).then(() => resolve(1));
          return;
        }
        finish(1);
      } else {
        io.stderr.write(`mcp-shelf connect: connection lost: ${err.message}\n`);
        finish(1);
      }
    });
    // The server closed: flush what it sent, then exit.
    sock.on('close', () => {
      if (!connected) return;
      if (io.stdout.writableNeedDrain) io.stdout.once('drain', () => finish(0));
      else finish(0);
    });
    // The client closed our stdin: half-close so in-flight responses still arrive, then the server ends.
    io.stdin.on('end', () => {
      if (connected) sock.end();
      else finish(0);
    });
    io.stdout.on('error', () => finish(0)); // the client went away (EPIPE)
  });
}
