/**
 * What a launch of the app's executable is for, decided from its arguments
 * before anything else starts (plain data, so it is tested on plain Node;
 * main.ts acts on it). The installed app is also the stdio bridge: clients
 * run `<app executable> --mcp-bridge [--socket PATH]`, which pipes their
 * stdin/stdout to the running shelf's socket with no window, no Dock icon
 * and no single-instance lock. This is what lets Electron's runAsNode fuse
 * stay off: no program that can start the executable can turn it into a
 * plain Node through an environment variable.
 */

export const BRIDGE_FLAG = '--mcp-bridge';

export type Launch =
  /** The stdio bridge to the socket (null: the default socket). */
  | { mode: 'bridge'; socket: string | null }
  /** --mcp-bridge with arguments it does not take: said on stderr, exit 2. */
  | { mode: 'bridge-usage'; error: string }
  /** The app: window, tray and server. */
  | { mode: 'app' };

export const BRIDGE_USAGE = `Usage: <MCP Shelf executable> ${BRIDGE_FLAG} [--socket PATH]

Bridges stdin/stdout to the running MCP Shelf, for MCP clients that launch a
stdio server. Exits when either side closes.
`;

/** `argv` is process.argv: the executable first (and, unpackaged, the app's folder). */
export function launchMode(argv: readonly string[]): Launch {
  const args = argv.slice(1);
  const at = args.indexOf(BRIDGE_FLAG);
  if (at < 0) return { mode: 'app' };
  let socket: string | null = null;
  const rest = args.slice(at + 1);
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i] as string;
    if (a === '--socket') {
      const value = rest[i + 1];
      if (value === undefined || value === '') return { mode: 'bridge-usage', error: '--socket needs a path' };
      socket = value;
      i++;
    } else if (a.startsWith('--socket=')) {
      socket = a.slice('--socket='.length);
      if (socket === '') return { mode: 'bridge-usage', error: '--socket needs a path' };
    } else return { mode: 'bridge-usage', error: `unexpected argument: ${a}` };
  }
  return { mode: 'bridge', socket };
}

/** The dialog that asks before folders another program named on the command line are published (Electron's MessageBoxOptions, as data). */
export function publishAskOptions(paths: readonly string[]) {
  return {
    type: 'question' as const,
    title: 'Publish folders?',
    message: paths.length === 1 ? 'Publish this folder to MCP clients?' : `Publish these ${paths.length} folders to MCP clients?`,
    detail: `MCP Shelf was started with ${paths.length === 1 ? 'a folder' : 'folders'} to publish:\n\n${paths.join('\n')}\n\nAny program can start MCP Shelf this way. Publish only if you asked for it.`,
    buttons: ['Publish', 'Don’t Publish'],
    defaultId: 1,
    cancelId: 1,
    noLink: true,
  };
}
