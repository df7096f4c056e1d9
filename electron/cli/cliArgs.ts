import { parseArgs, type ParseArgsConfig } from 'node:util';

/** The one error, and where the options are: the whole usage pushed the error off the screen. */
export function fail(message: string, usage: string): never {
  const command = /^Usage: (mcp-shelf \w+)/.exec(usage)?.[1] ?? 'mcp-shelf';
  process.stderr.write(`mcp-shelf: ${message}\n(${command} --help shows the options)\n`);
  process.exit(2);
}

export function parse<T extends ParseArgsConfig['options']>(args: string[], options: T, usage: string) {
  try {
    return parseArgs({ args, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (err) {
    fail((err as Error).message, usage);
  }
}
