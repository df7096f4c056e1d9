import { spawn } from 'node:child_process';

/**
 * Runs a script under Node 22 (the conformance suite and the Inspector need
 * it), fetched from the npm registry by `npx -y node@22`.
 */
export function runNode22(
  args: string[],
  options: { cwd?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const proc = spawn('npx', ['-y', 'node@22', ...args], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => proc.kill('SIGKILL'), options.timeoutMs ?? 300_000);
    proc.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
