import type { CallToolResult } from '@modelcontextprotocol/client';
import { App, type McpUiHostCapabilities, type McpUiHostContext } from '@modelcontextprotocol/ext-apps';
import { useSyncExternalStore } from 'react';

import { applyHostLook, applyHostSize } from './hostTheme';
import { ShelfCalls } from './shelfCalls';

declare const __SHELF_VERSION__: string;

/** What the host has told the view so far; the React tree reads it through useHostState. */
export interface HostState {
  status: 'connecting' | 'ready' | 'failed';
  error: string | null;
  context: McpUiHostContext;
  capabilities: McpUiHostCapabilities;
  /** The arguments browse_shelf was called with (the view opens on them). */
  input: Record<string, unknown> | null;
  /** browse_shelf's result, when the host passed it on. */
  result: CallToolResult | null;
}

/**
 * The view's one connection to its host (ext-apps `App` over postMessage),
 * made before React renders: the host may send the tool's input and result
 * right after the handshake, and they are kept here until the view asks.
 */
export class HostLink {
  readonly app = new App({ name: 'MCP Shelf', version: __SHELF_VERSION__ }, { availableDisplayModes: ['inline', 'fullscreen'] }, { autoResize: true });
  readonly calls = new ShelfCalls(this.app);
  private state: HostState = { status: 'connecting', error: null, context: {}, capabilities: {}, input: null, result: null };
  private readonly listeners = new Set<() => void>();

  constructor() {
    // Handlers before connect(): the host may send these at once.
    this.app.ontoolinput = (p) => this.set({ input: p.arguments ?? {} });
    this.app.ontoolresult = (r) => this.set({ result: r });
    this.app.onhostcontextchanged = () => this.setContext(this.app.getHostContext() ?? {});
    this.app.onteardown = async () => ({});
  }

  async connect(): Promise<void> {
    try {
      await this.app.connect();
      this.setContext(this.app.getHostContext() ?? {});
      this.set({ status: 'ready', capabilities: this.app.getHostCapabilities() ?? {} });
    } catch (err) {
      this.set({ status: 'failed', error: err instanceof Error ? err.message : String(err) });
    }
  }

  /** Asks the host for another display mode; it answers with the one it chose. */
  async displayMode(mode: 'inline' | 'fullscreen'): Promise<void> {
    const { mode: chosen } = await this.app.requestDisplayMode({ mode });
    this.setContext({ ...this.state.context, displayMode: chosen });
  }

  private setContext(context: McpUiHostContext): void {
    applyHostLook(context);
    applyHostSize(context);
    this.set({ context });
  }

  private set(patch: Partial<HostState>): void {
    this.state = { ...this.state, ...patch };
    for (const l of this.listeners) l();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  snapshot = (): HostState => this.state;
}

export function useHostState(link: HostLink): HostState {
  return useSyncExternalStore(link.subscribe, link.snapshot);
}
