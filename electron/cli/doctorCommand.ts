import path from 'node:path';
import { parseArgs } from 'node:util';

import type { DoctorReport } from '../../shared/shelfApi.js';
import { nodeBridgeCommand } from '../core/clientSetup/clientConfigs.js';
import { runDoctor } from '../core/clientSetup/doctor.js';
import { CLI_PATH } from './headless.js';

export const DOCTOR_USAGE = `Usage: mcp-shelf doctor [--json] [--project DIR] [--revision REV] [--step-timeout SECONDS]

The Compatibility Doctor. For each MCP client found on this machine (Claude
Desktop, including the Microsoft Store build; Claude Code; VS Code; Cursor;
Windsurf; Gemini CLI), it checks the live config: which file, the mcp-shelf
entry, whether its command runs and the socket it names answers. Then it runs
the entry's own command as the client would and does a round trip in the
revision that client speaks: connect, list, read a file, and read an image and
a document through the read_resource tool. Each step is bounded in time. It
writes nothing; "mcp-shelf config CLIENT" applies a fix.

Exit code: 0 when every client found passes, 1 when any step fails or no
client is found, 2 for bad usage.

Options:
  --json                 print the reports as JSON (stdout)
  --project DIR          also check DIR's project configs (.mcp.json,
                         .vscode/mcp.json, .cursor/mcp.json)
  --revision REV         speak 2025-11-25 or 2026-07-28 in every round trip
  --step-timeout SECONDS each step's deadline (default 10)
  -h, --help             show this help
`;

const MARK = { pass: '✓', fail: '✗', skip: '–', info: 'i' } as const;

function print(reports: DoctorReport[]): string {
  if (reports.length === 0) return 'No MCP client config found on this machine. Add one with "mcp-shelf config CLIENT".\n';
  const lines: string[] = [];
  for (const r of reports) {
    lines.push(`${r.ok ? MARK.pass : MARK.fail} ${r.client} — ${r.file}`);
    for (const s of r.steps) {
      lines.push(`    ${MARK[s.status]} ${s.label}: ${s.detail}`);
      if (s.fix) lines.push(`        fix: ${s.fix.text}${s.fix.action === 'rewrite-entry' ? ` (mcp-shelf config ${r.target})` : ''}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

export async function doctorCommand(args: string[]): Promise<void> {
  let values: { json?: boolean; project?: string; revision?: string; 'step-timeout'?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        json: { type: 'boolean' },
        project: { type: 'string' },
        revision: { type: 'string' },
        'step-timeout': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: false,
      strict: true,
    }));
  } catch (err) {
    process.stderr.write(`mcp-shelf: ${(err as Error).message}\n\n${DOCTOR_USAGE}`);
    process.exit(2);
  }
  if (values.help) return void process.stdout.write(DOCTOR_USAGE);
  const revision = values.revision;
  if (revision !== undefined && revision !== '2025-11-25' && revision !== '2026-07-28') {
    process.stderr.write(`mcp-shelf: --revision must be 2025-11-25 or 2026-07-28\n\n${DOCTOR_USAGE}`);
    process.exit(2);
  }
  const seconds = values['step-timeout'] === undefined ? 10 : Number(values['step-timeout']);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 600) {
    process.stderr.write(`mcp-shelf: --step-timeout must be a number of seconds (0–600)\n\n${DOCTOR_USAGE}`);
    process.exit(2);
  }
  const reports = await runDoctor({
    project: values.project ? path.resolve(values.project) : null,
    revision,
    stepTimeoutMs: seconds * 1000,
    knownBridges: [nodeBridgeCommand(process.execPath, CLI_PATH, '')],
  });
  process.stdout.write(values.json ? `${JSON.stringify(reports, null, 2)}\n` : print(reports));
  process.exit(reports.length > 0 && reports.every((r) => r.ok) ? 0 : 1);
}
