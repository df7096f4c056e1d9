import { parseArgs } from 'node:util';

import { runBridge } from '../core/transport/bridge.js';
import { defaultSocketPath } from '../core/transport/socketPath.js';

/**
 * `mcp-shelf connect`: shared by the full CLI and the standalone bridge that
 * ships inside the app (which must load nothing but Node built-ins).
 */
export const CONNECT_USAGE = `Usage: mcp-shelf connect [--socket PATH]

Bridges stdin/stdout to a running MCP Shelf, for MCP clients that launch a
stdio server. Exits when either side closes.

Options:
  --socket PATH   socket path (default: ${defaultSocketPath()})
  -h, --help      show this help
`;

/** Runs the bridge and exits the process with its code; bad arguments exit 2. */
export async function connectCommand(args: string[]): Promise<void> {
  let values: { socket?: string; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args,
      options: { socket: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    }));
  } catch (err) {
    process.stderr.write(`mcp-shelf: ${(err as Error).message}\n\n${CONNECT_USAGE}`);
    process.exit(2);
  }
  if (values.help) {
    process.stdout.write(CONNECT_USAGE);
    return;
  }
  if (positionals.length > 0) {
    process.stderr.write(`mcp-shelf: unexpected argument: ${positionals[0]}\n\n${CONNECT_USAGE}`);
    process.exit(2);
  }
  const socketPath = values.socket ?? defaultSocketPath();
  // Client configs name the socket even when it is the default one; the default's folder is held to the server's own rule.
  const code = await runBridge(
    socketPath,
    { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr },
    { isDefault: socketPath === defaultSocketPath() },
  );
  // Stdin may still hold the event loop open after the socket closed.
  setImmediate(() => process.exit(code));
}
