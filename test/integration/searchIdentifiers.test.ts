import { rm } from 'node:fs/promises';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { eventually, makeTree } from '../support/fixtures.js';
import { connectSdkClient, type ShelfProcess, startShelf } from '../support/shelfProcess.js';

/** Issue 39 item 8: "invoice total" found the README, not compute_invoice_total or computeInvoiceTotal. */
describe('search_resources finds code identifiers by their words', () => {
  let root: string;
  let shelf: ShelfProcess;
  let client: Client;
  type Found = { results: Array<{ path: string; line: number; snippet: string }>; indexing: boolean };
  const find = async (query: string) =>
    ((await client.callTool({ name: 'search_resources', arguments: { query } })) as CallToolResult).structuredContent as Found;
  const paths = async (query: string) => (await find(query)).results.map((r) => r.path).sort();

  beforeAll(async () => {
    root = await makeTree({
      'README.md': '# Billing\n\nThe invoice shows a total at the bottom.\n',
      'src/billing.py': 'import math\n\n\ndef compute_invoice_total(lines):\n    return math.fsum(lines)\n',
      'src/billing.ts': "import { sum } from './sum';\n\nexport function computeInvoiceTotal(lines: number[]): number {\n  return sum(lines);\n}\n",
      'src/tax.ts': 'export const computeTax = (x: number) => x * 0.2;\n',
    });
    shelf = await startShelf([root]);
    client = await connectSdkClient(shelf.socketPath);
    await eventually(async () => !(await find('invoice')).indexing, 60_000, 'the index');
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await shelf?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('"invoice total" finds both spellings of the identifier and the README; either spelling finds both; the hit names the line', async () => {
    expect(await paths('invoice total')).toEqual(['README.md', 'src/billing.py', 'src/billing.ts']);
    expect(await paths('computeInvoiceTotal')).toEqual(['src/billing.py', 'src/billing.ts']);
    expect(await paths('compute_invoice_total')).toEqual(['src/billing.py', 'src/billing.ts']);
    expect(await paths('compute')).toEqual(['src/billing.py', 'src/billing.ts', 'src/tax.ts']);
    expect(await paths('computeInv*')).toEqual(['src/billing.ts']);
    const py = (await find('invoice total')).results.find((r) => r.path === 'src/billing.py');
    expect(py?.line).toBe(4);
  }, 60_000);
});
