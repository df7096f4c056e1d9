import { connectCommand } from './connectCommand.js';

/**
 * The stdio bridge as one dependency-free file, shipped unpacked inside the
 * installed app and in the .mcpb: any Node runs it as
 * `mcp-shelf-bridge.cjs connect [--socket PATH]` (the app's own executable
 * is the bridge too, with --mcp-bridge).
 */
const [command, ...rest] = process.argv.slice(2);
if (command !== undefined && command !== 'connect') {
  process.stderr.write(`mcp-shelf-bridge: unknown command "${command}" (only "connect")\n`);
  process.exit(2);
}
connectCommand(rest).catch((err: Error) => {
  process.stderr.write(`mcp-shelf-bridge: ${err.message}\n`);
  process.exit(1);
});
