import { rm } from 'node:fs/promises';

import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import {
  getToolUiResourceUri,
  isToolVisibilityAppOnly,
  type McpUiHostCapabilities,
  type McpUiHostContext,
  RESOURCE_MIME_TYPE,
} from '@modelcontextprotocol/ext-apps/app-bridge';
import type { FrameLocator, Page } from '@playwright/test';
import { Resvg } from '@resvg/resvg-js';

import { pdfWithText } from '../../test/support/documents.js';
import { makeTree, uriOf } from '../../test/support/fixtures.js';
import { CLI } from '../../test/support/shelfProcess.js';
import { connectWebApiAt } from '../../test/support/webApi.js';
import { type AppHost, startAppHost } from './appHost/appHostServer.js';
import type { HostSetup, Received } from './appHost/host.js';
import { seriousViolations } from './axeCheck.js';
import { expect, shoot, snap, TAKE_SHOTS, test } from './shelfFixture.js';

/**
 * The in-chat app hosted the way a web host does it: the official AppBridge
 * in a host page, the view in a sandbox proxy on another origin under the
 * CSP its resource declares, and every call the view makes relayed to a
 * real MCP client (the official TypeScript SDK, over the stdio bridge) of
 * a running `mcp-shelf serve`.
 */

const PLAN = '# Plan\n\nShip the **shelf** inside the chat.\n\n- filter\n- search\n';
const TODO = 'buy milk\ncall the quarterly accountant\n';
const MAIN_TS = 'export function main(): number {\n  return 42;\n}\n';

const UI = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [RESOURCE_MIME_TYPE] } } };

/** A real MCP client that says it renders apps, as a host's is. */
async function hostClient(socketPath: string): Promise<Client> {
  const client = new Client({ name: 'Playwright Host', version: '1.0.0' }, { capabilities: UI as never });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'connect', '--socket', socketPath], stderr: 'pipe' }));
  return client;
}

const CAPABILITIES: McpUiHostCapabilities = {
  serverTools: {},
  serverResources: {},
  openLinks: {},
  message: { text: {}, image: {} },
  updateModelContext: { text: {}, image: {} },
};

/**
 * What a host does when the model calls browse_shelf: finds the tool's
 * `ui://` resource, reads it, calls the tool, and shows the view in a
 * sandboxed frame with the call's input and result.
 */
async function openApp(
  page: Page,
  client: Client,
  host: AppHost,
  args: Record<string, unknown>,
  context: McpUiHostContext = {},
  layout: HostSetup['layout'] = 'fill',
): Promise<FrameLocator> {
  const { tools } = await client.listTools();
  const browse = tools.find((t) => getToolUiResourceUri(t) !== undefined);
  if (!browse) throw new Error('no tool links a ui:// resource');
  const uri = getToolUiResourceUri(browse) as string;
  const [resource] = (await client.readResource({ uri })).contents;
  expect(resource).toMatchObject({ uri, mimeType: RESOURCE_MIME_TYPE });
  const html = (resource as { text: string }).text;
  const csp = (resource?._meta as { ui?: { csp?: object } } | undefined)?.ui?.csp;
  const result = await client.callTool({ name: browse.name, arguments: args });
  await page.exposeFunction('mcpRelay', (method: string, params: never) => (method === 'tools/call' ? client.callTool(params) : client.readResource(params)));
  await page.goto(host.hostUrl);
  const size = page.viewportSize() ?? { width: 1280, height: 800 };
  const setup: HostSetup = {
    sandboxUrl: host.sandboxUrl,
    html,
    csp: csp as HostSetup['csp'],
    tools: tools as HostSetup['tools'],
    toolInput: args,
    toolResult: JSON.parse(JSON.stringify(result)) as unknown,
    capabilities: CAPABILITIES,
    context: {
      theme: 'light',
      displayMode: 'inline',
      availableDisplayModes: ['inline', 'fullscreen'],
      platform: 'web',
      containerDimensions: { width: size.width, height: size.height },
      ...context,
    },
    layout,
  };
  await page.evaluate((s) => window.startHost(s as HostSetup), setup as unknown);
  return page.frameLocator('#app-frame').frameLocator('iframe');
}

/** What the host has received from the view, once it holds at least `n` items. */
async function received(page: Page, n: number): Promise<Received[]> {
  await expect.poll(() => page.evaluate(() => window.received.length)).toBeGreaterThanOrEqual(n);
  return page.evaluate(() => window.received);
}

/** The app at both sizes, light and dark, the theme set by the host (as a host does). */
async function shootApp(page: Page, name: string): Promise<void> {
  if (!TAKE_SHOTS) return;
  for (const size of [
    { width: 1440, height: 900 },
    { width: 800, height: 600 },
  ]) {
    await page.setViewportSize(size);
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate(({ theme, size }) => window.setHostContext({ theme, containerDimensions: size }), { theme, size });
      await page.waitForTimeout(300);
      await snap(page, `${name}-${size.width}x${size.height}-${theme}.png`);
    }
  }
  await page.evaluate(() => window.setHostContext({ theme: 'light' }));
}

let root: string;
let host: AppHost;

test.beforeAll(async () => {
  host = await startAppHost();
});
test.afterAll(async () => {
  await host?.close();
});

const PNG = Buffer.from(
  new Resvg(
    '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80"><rect width="120" height="80" fill="#2b55d4"/><circle cx="60" cy="40" r="24" fill="#fff"/></svg>',
  )
    .render()
    .asPng(),
);

test.beforeEach(async () => {
  root = await makeTree({
    'notes/plan.md': PLAN,
    'notes/todo.txt': TODO,
    'code/main.ts': MAIN_TS,
    'pictures/logo.png': PNG,
    'reports/report.pdf': await pdfWithText(['Revenue rose in spring.', 'Costs fell in summer.', 'Outlook for autumn.']),
  });
});
test.afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

test('the app in a host: tools, filter, search, preview, pages, image, add to chat — all through the host, nothing from the network', async ({
  page,
  startShelf,
}) => {
  const shelf = await startShelf([root]);
  const client = await hostClient(shelf.socketPath);
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  const problems: string[] = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  try {
    // What the host shows the model: browse_shelf, not the view's own tools.
    const { tools } = await client.listTools();
    expect(tools.filter((t) => !isToolVisibilityAppOnly(t)).map((t) => t.name)).toEqual([
      'list_resources',
      'read_resource',
      'list_directory',
      'search_resources',
      'grep_resources',
      'browse_shelf',
    ]);
    expect(tools.filter((t) => isToolVisibilityAppOnly(t)).map((t) => t.name)).toEqual([
      'shelf_app_list',
      'shelf_app_find',
      'shelf_app_search',
      'shelf_app_read',
      'shelf_app_changes',
    ]);

    const app = await openApp(page, client, host, {});
    const list = app.getByTestId('app-list');
    await expect(list.getByRole('treeitem', { name: /notes/ })).toBeVisible();
    // The tree opens a folder a directory at a time.
    await list.getByRole('treeitem', { name: 'notes' }).click();
    await expect(list.getByRole('treeitem', { name: /plan\.md/ })).toBeVisible();

    // Filter by name, open, add to chat: the host receives the file's exact text.
    const box = app.getByLabel('Filter files by name');
    await box.fill('plan');
    await expect(list.getByTestId('app-file')).toHaveCount(1);
    await box.press('ArrowDown');
    await page.keyboard.press('Enter');
    const preview = app.getByTestId('app-preview');
    await expect(preview.getByTestId('markdown-view').getByRole('heading', { name: 'Plan' })).toBeVisible();
    await preview.getByTestId('add-to-chat').click();
    await expect(app.getByTestId('app-status')).toHaveText('Added plan.md to the chat.');
    let got = await received(page, 1);
    expect(got).toHaveLength(1);
    expect(got[0]).toEqual({
      kind: 'message',
      params: {
        role: 'user',
        content: [
          { type: 'text', text: expect.stringContaining(`notes/plan.md`) },
          { type: 'text', text: PLAN },
        ],
      },
    });
    await shootApp(page, '20-app-markdown');

    // Full-text search: a hit opens at its line; "Add as context" puts it in the model's context.
    await app.getByRole('button', { name: 'Text', exact: true }).click();
    await app.getByLabel('Search file text').fill('quarterly');
    const hit = list.getByRole('option', { name: /todo\.txt/ });
    await expect(hit).toContainText('call the quarterly accountant');
    await hit.click();
    await expect(preview.getByTestId('focus-line')).toBeVisible();
    await preview.getByTestId('add-as-context').click();
    await expect(app.getByTestId('app-context')).toContainText('todo.txt');
    got = await received(page, 2);
    expect(got[1]).toEqual({ kind: 'context', params: { content: [expect.objectContaining({ type: 'text' }), { type: 'text', text: TODO }] } });
    await shootApp(page, '21-app-search');

    // A PDF: its text, and a range of its pages handed on.
    await app.getByRole('button', { name: 'Names', exact: true }).click();
    await app.getByLabel('Filter files by name').fill('report');
    await list.getByRole('option', { name: /report\.pdf/ }).click();
    await expect(preview.getByTestId('code-view')).toContainText('Costs fell in summer.');
    await preview.getByLabel('First page').fill('2');
    await preview.getByLabel('Last page').fill('2');
    await preview.getByTestId('add-to-chat').click();
    got = await received(page, 3);
    const pages = (got[2] as { params: { content: Array<{ text: string }> } }).params.content;
    expect(pages[0]?.text).toContain('page 2 of 3');
    expect(pages[1]?.text).toContain('--- Page 2 ---');
    expect(pages[1]?.text).toContain('Costs fell in summer.');
    expect(pages[1]?.text).not.toContain('Revenue');
    await shootApp(page, '22-app-pdf-pages');

    // An image: seen in the preview, handed on as an image block.
    await app.getByLabel('Filter files by name').fill('logo');
    await list.getByRole('option', { name: /logo\.png/ }).click();
    await expect(preview.getByTestId('image-view')).toBeVisible();
    await preview.getByTestId('add-to-chat').click();
    got = await received(page, 4);
    expect(got).toHaveLength(4);
    expect((got[3] as { params: { content: unknown[] } }).params.content[1]).toEqual({ type: 'image', mimeType: 'image/png', data: PNG.toString('base64') });

    // The view reached the shelf only through the host and loaded nothing from anywhere.
    expect(got.filter((r) => r.kind === 'refused')).toEqual([]);
    expect(new Set(requests.map((u) => new URL(u).pathname))).toEqual(new Set(['/host.html', '/host.js', '/sandbox.html']));
    expect(problems.filter((p) => /Content Security Policy|Refused/.test(p))).toEqual([]);

    // The shelf filed the view's reads as the app's, by the host's client.
    const api = await connectWebApiAt(shelf.url);
    const history = await api.call('queryHistory', { limit: 50 });
    await api.close();
    const byApp = history.entries.filter((e) => e.via === 'app').map((e) => [e.client, e.uri]);
    expect(byApp).toEqual(
      expect.arrayContaining([
        ['Playwright Host', uriOf(root, 'notes/plan.md')],
        ['Playwright Host', uriOf(root, 'notes/todo.txt')],
        ['Playwright Host', `${uriOf(root, 'reports/report.pdf')}?as=text`],
        ['Playwright Host', uriOf(root, 'pictures/logo.png')],
      ]),
    );
  } finally {
    await client.close();
  }
});

test('browse_shelf with a query opens the app on its results; the app follows the host theme, its colours and its display mode', async ({
  page,
  startShelf,
}) => {
  const shelf = await startShelf([root]);
  const client = await hostClient(shelf.socketPath);
  try {
    const app = await openApp(page, client, host, { query: 'quarterly' });
    // No file is named so: the app opens on the text results.
    await expect(app.getByLabel('Search file text')).toHaveValue('quarterly');
    await expect(app.getByRole('button', { name: 'Text', exact: true })).toHaveAttribute('aria-pressed', 'true');
    await expect(app.getByTestId('app-list').getByRole('option', { name: /todo\.txt/ })).toBeVisible();

    const shell = app.locator('.app-shell');
    const background = () => shell.evaluate((e) => getComputedStyle(e).backgroundColor);
    expect(await background()).toBe('rgb(246, 247, 249)');
    await page.evaluate(() => window.setHostContext({ theme: 'dark' }));
    await expect.poll(background).toBe('rgb(23, 25, 29)');
    // A host's own colours win over the app's.
    await page.evaluate(() => window.setHostContext({ styles: { variables: { '--color-background-secondary': 'rgb(40, 30, 20)' } as never } }));
    await expect.poll(background).toBe('rgb(40, 30, 20)');

    // The tree, a code file highlighted as in the window.
    await app.getByLabel('Search file text').fill('');
    const list = app.getByTestId('app-list');
    await list.getByRole('treeitem', { name: 'code' }).click();
    await list.getByRole('treeitem', { name: /main\.ts/ }).click();
    await expect(app.getByTestId('code-view')).toHaveAttribute('data-language', 'typescript');
    await page.evaluate(() => window.setHostContext({ styles: {} }));
    await shootApp(page, '23-app-tree-code');

    // Full screen is asked of the host, which answers with the mode it chose.
    await app.getByRole('button', { name: 'Full screen' }).click();
    await expect(app.getByRole('button', { name: 'Exit full screen' })).toBeVisible();
  } finally {
    await client.close();
  }
});

test('an ask-before-read folder asks in the MCP Shelf window before the app shows a file; a denied read says so', async ({ page, context, startShelf }) => {
  const shelf = await startShelf(['--ask-before-read', root]);
  await page.goto(shelf.url); // the window, where asks are answered
  await expect(page.getByTestId('badge-ask')).toHaveCount(1);
  const client = await hostClient(shelf.socketPath);
  const chat = await context.newPage();
  try {
    const app = await openApp(chat, client, host, { query: 'plan' });
    const list = app.getByTestId('app-list');
    await list.getByRole('option', { name: /plan\.md/ }).click();
    const preview = app.getByTestId('app-preview');
    await expect(preview).toContainText('Waiting for your answer in the MCP Shelf window');
    const prompt = page.getByRole('alertdialog');
    await expect(prompt).toContainText('Allow Playwright Host 1.0.0 to read this file?');
    await expect(prompt).toContainText('through its MCP Shelf app in the chat');
    await shoot(page, '28-ask-from-app');
    await expect(page.getByTestId('ask-path')).toHaveText('notes/plan.md');
    // Nothing of the file is shown while the person has not answered.
    await expect(preview.getByTestId('markdown-view')).toHaveCount(0);
    await expect(preview).not.toContainText('inside the chat');
    await page.getByTestId('ask-allow-once').click();
    await expect(preview.getByTestId('markdown-view').getByRole('heading', { name: 'Plan' })).toBeVisible();

    await app.getByLabel('Filter files by name').fill('todo');
    await list.getByRole('option', { name: /todo\.txt/ }).click();
    await expect(page.getByTestId('ask-path')).toHaveText('notes/todo.txt');
    await page.keyboard.press('Escape');
    await expect(preview.getByTestId('app-read-error')).toContainText('You denied this read in MCP Shelf');
    await expect(preview).not.toContainText('buy milk');
    await expect(preview.getByTestId('add-to-chat')).toBeDisabled();
    await shootApp(chat, '24-app-denied');

    // The window's history says which reads came from the app.
    await page.getByRole('tab', { name: /History/ }).click();
    await expect(page.getByRole('row').filter({ hasText: 'plan.md' }).first()).toContainText('in-chat app');
  } finally {
    await client.close();
  }
});

test('a change the host’s client proposes shows in the app as waiting for approval in MCP Shelf, with nothing to decide it there; it goes once answered in the window', async ({
  page,
  context,
  startShelf,
}) => {
  const shelf = await startShelf(['--allow-changes', root]);
  await page.goto(shelf.url); // the window, where changes are decided
  const client = await hostClient(shelf.socketPath);
  const api = await connectWebApiAt(shelf.url);
  const chat = await context.newPage();
  try {
    const app = await openApp(chat, client, host, {});
    await expect(app.getByRole('tree', { name: 'Published folders' })).toBeVisible();
    await expect(app.getByTestId('app-changes')).toHaveCount(0);
    const uri = uriOf(root, 'notes/plan.md');
    const proposed = client.callTool({ name: 'edit_resource', arguments: { uri, edits: [{ oldText: 'inside the chat', newText: 'inside the chat, today' }] } });
    const strip = app.getByTestId('app-changes');
    await expect(strip).toContainText('Waiting for your approval in MCP Shelf:');
    await expect(strip).toContainText(/notes\/plan\.md \(\+1 −1\)/);
    await expect(strip).toContainText('Decide in the MCP Shelf window');
    await expect(strip.locator('button, a, input')).toHaveCount(0);
    await shootApp(chat, '42-app-change-waiting');
    const [waiting] = await api.call('pendingChanges');
    await api.call('answerChange', (waiting as { id: number }).id, { approve: false });
    await proposed;
    await expect(strip).toHaveCount(0);
  } finally {
    await api.close();
    await client.close();
  }
});

test('inline in a conversation, the app takes a height of its own within the host maximum and tells the host', async ({ page, startShelf }) => {
  const shelf = await startShelf([root]);
  const client = await hostClient(shelf.socketPath);
  try {
    await page.setViewportSize({ width: 1440, height: 900 });
    const app = await openApp(page, client, host, { query: 'plan' }, { containerDimensions: { width: 760, maxHeight: 700 } }, 'inline');
    await app
      .getByTestId('app-list')
      .getByRole('option', { name: /plan\.md/ })
      .click();
    await expect(app.getByTestId('markdown-view')).toBeVisible();
    // The host sized its frame from the view's size-changed notification.
    await expect.poll(() => page.locator('#app-frame').evaluate((f) => f.getBoundingClientRect().height)).toBeGreaterThan(540);
    expect(await page.locator('#app-frame').evaluate((f) => f.getBoundingClientRect().height)).toBeLessThanOrEqual(700);
    // A smaller maximum is kept.
    await page.evaluate(() => window.setHostContext({ containerDimensions: { width: 760, maxHeight: 420 } }));
    await expect.poll(() => page.locator('#app-frame').evaluate((f) => Math.round(f.getBoundingClientRect().height))).toBeLessThanOrEqual(420 + 2);
    await page.evaluate(() => window.setHostContext({ containerDimensions: { width: 760, maxHeight: 700 } }));
    if (TAKE_SHOTS) {
      for (const theme of ['light', 'dark'] as const) {
        await page.evaluate((t) => window.setHostContext({ theme: t }), theme);
        await page.waitForTimeout(300);
        await snap(page, `25-app-inline-1440x900-${theme}.png`);
      }
    }
  } finally {
    await client.close();
  }
});

test("the window's Connect panel says which clients show the app", async ({ page, shelf }) => {
  await page.goto(shelf.url);
  await page.getByRole('tab', { name: 'Connect a client' }).click();
  await expect(page.getByTestId('app-note')).toContainText(
    'Claude Desktop, claude.ai, VS Code, Cursor, ChatGPT and Goose show MCP Shelf as an app inside the conversation',
  );
  await expect(page.getByTestId('snippet-claude-desktop')).toContainText('shows the app');
  await expect(page.getByTestId('snippet-cursor')).toContainText('shows the app');
  await expect(page.getByTestId('snippet-claude-code')).not.toContainText('shows the app');
  await shoot(page, '26-connect-app');
});

/** axe-core inside the app's frame, with the host's theme light and dark: no critical or serious violation. */
function appViolations(page: Page, view: string): Promise<string[]> {
  // The app takes its scheme from the host's context, as a host sets it.
  return seriousViolations(page, view, async (theme) => {
    await page.evaluate((t) => window.setHostContext({ theme: t }), theme);
    await page.waitForTimeout(200);
  });
}

test('the app is keyboard usable and has no critical or serious accessibility violation, light and dark; narrow, list and preview take turns', async ({
  page,
  startShelf,
}) => {
  // Eight axe passes (four views, two themes): on a busy machine they take minutes, which is no failure.
  test.setTimeout(300_000);
  const shelf = await startShelf([root]);
  const client = await hostClient(shelf.socketPath);
  const problems: string[] = [];
  try {
    const app = await openApp(page, client, host, {});
    const list = app.getByTestId('app-list');
    await expect(list.getByRole('treeitem', { name: 'notes' })).toBeVisible();
    problems.push(...(await appViolations(page, 'tree')));
    // Keyboard only: "/" to the box, type, ↓ into the list, Enter to open, Ctrl+Enter to add.
    await app.getByText('Pick a file to preview it.').click(); // the person is in the app
    await page.keyboard.press('/');
    await expect(app.getByLabel('Filter files by name')).toBeFocused();
    await page.keyboard.type('main');
    await expect(list.getByTestId('app-file')).toHaveCount(1);
    await page.keyboard.press('ArrowDown');
    await expect(list).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(app.getByTestId('code-view')).toContainText('return 42;');
    problems.push(...(await appViolations(page, 'code')));
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => page.evaluate(() => window.received.length)).toBe(1);
    expect(await page.evaluate(() => window.received[0])).toMatchObject({
      kind: 'message',
      params: { content: [{ type: 'text' }, { type: 'text', text: MAIN_TS }] },
    });
    await app.getByRole('button', { name: 'Text', exact: true }).click();
    await app.getByLabel('Search file text').fill('milk');
    await expect(list.getByRole('option', { name: /todo\.txt/ })).toBeVisible();
    problems.push(...(await appViolations(page, 'search')));
    // The tree by keyboard: → opens a folder, ← goes back to it.
    await app.getByLabel('Search file text').fill('');
    await list.focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    await expect(list.getByRole('treeitem', { name: /main\.ts/ })).toBeVisible();

    // Narrow: the preview takes the whole frame, with a way back.
    await page.setViewportSize({ width: 560, height: 700 });
    await page.evaluate(() => window.setHostContext({ containerDimensions: { width: 560, height: 700 } }));
    await expect(app.getByTestId('app-list')).toHaveCount(0);
    await expect(app.getByTestId('code-view')).toBeVisible();
    await snap(page, '27-app-narrow-560x700-light.png');
    problems.push(...(await appViolations(page, 'narrow preview')));
    await app.getByRole('button', { name: 'Back to the files' }).click();
    await list.getByRole('treeitem', { name: /main\.ts/ }).click();
    await expect(app.getByTestId('code-view')).toBeVisible();
    await app.getByRole('button', { name: 'Back to the files' }).click();
    await expect(list.getByRole('treeitem', { name: /main\.ts/ })).toBeVisible();
    await snap(page, '27-app-narrow-list-560x700-light.png');
    expect(problems).toEqual([]);
  } finally {
    await client.close();
  }
});
