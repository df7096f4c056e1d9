/**
 * A host page for MCP Apps, as a web host builds one with the official SDK:
 * the view runs in a sandbox proxy on another origin (which loads it into
 * an inner frame under the CSP its resource declares), and an `AppBridge`
 * speaks to it. The bridge's server-bound requests go to `mcpRelay`, which
 * the test wires to a real MCP client of a running shelf. Built for the
 * browser by appHostServer.ts.
 */
import {
  AppBridge,
  type McpUiHostCapabilities,
  type McpUiHostContext,
  type McpUiResourceCsp,
  PostMessageTransport,
} from '@modelcontextprotocol/ext-apps/app-bridge';

type Tool = { name: string; _meta?: { ui?: { visibility?: string[] } } };

export interface HostSetup {
  sandboxUrl: string;
  html: string;
  csp: McpUiResourceCsp | undefined;
  tools: Tool[];
  toolInput: Record<string, unknown>;
  toolResult: unknown;
  capabilities: McpUiHostCapabilities;
  context: McpUiHostContext;
  /** `inline`: in a conversation's column, as tall as the view asks (else the frame fills the page). */
  layout?: 'fill' | 'inline';
}

/** What the view handed the host: messages and context updates, in order. */
export type Received = { kind: 'message' | 'context'; params: { content?: unknown[] } } | { kind: 'link'; url: string } | { kind: 'refused'; tool: string };

declare global {
  interface Window {
    mcpRelay(method: string, params: unknown): Promise<unknown>;
    startHost(setup: HostSetup): Promise<void>;
    /** Changes some of the host's context (theme, size…) and tells the view. */
    setHostContext(patch: McpUiHostContext): void;
    received: Received[];
  }
}

window.received = [];

window.startHost = async (setup) => {
  const frame = document.createElement('iframe');
  frame.id = 'app-frame';
  if (setup.layout === 'inline') document.documentElement.classList.add('inline');
  frame.title = 'MCP Shelf app';
  frame.setAttribute('sandbox', 'allow-scripts allow-same-origin');
  const url = new URL(setup.sandboxUrl);
  url.searchParams.set('csp', JSON.stringify(setup.csp ?? {}));
  const ready = new Promise<void>((resolve) => {
    const onMessage = (e: MessageEvent) => {
      if (e.source === frame.contentWindow && (e.data as { method?: string } | null)?.method === 'ui/notifications/sandbox-proxy-ready') {
        window.removeEventListener('message', onMessage);
        resolve();
      }
    };
    window.addEventListener('message', onMessage);
  });
  frame.src = url.href;
  document.getElementById('chat')?.append(frame);
  await ready;

  let context = setup.context;
  const bridge = new AppBridge(null, { name: 'Playwright Host', version: '1.0.0' }, setup.capabilities, { hostContext: context });
  window.setHostContext = (patch) => {
    context = { ...context, ...patch };
    bridge.setHostContext(context);
  };
  const byName = new Map(setup.tools.map((t) => [t.name, t]));
  // The spec: a view may call only this server's tools whose visibility includes "app".
  bridge.oncalltool = async (params) => {
    const visibility = byName.get(params.name)?._meta?.ui?.visibility ?? ['model', 'app'];
    if (!byName.has(params.name) || !visibility.includes('app')) {
      window.received.push({ kind: 'refused', tool: params.name });
      throw new Error(`The view may not call ${params.name}`);
    }
    return (await window.mcpRelay('tools/call', params)) as never;
  };
  bridge.onreadresource = async (params) => (await window.mcpRelay('resources/read', params)) as never;
  bridge.onmessage = async (params) => {
    window.received.push({ kind: 'message', params });
    return {};
  };
  bridge.onupdatemodelcontext = async (params) => {
    window.received.push({ kind: 'context', params });
    return {};
  };
  bridge.onopenlink = async ({ url: href }) => {
    window.received.push({ kind: 'link', url: href });
    return {};
  };
  bridge.onrequestdisplaymode = async ({ mode }) => {
    window.setHostContext({ displayMode: mode });
    return { mode };
  };
  bridge.onsizechange = ({ height }) => {
    // A fixed-height host keeps its frame; one that lets the view choose follows it.
    if (height !== undefined && !('height' in (context.containerDimensions ?? {}))) frame.style.height = `${height}px`;
  };
  const initialized = new Promise<void>((resolve) => {
    bridge.oninitialized = () => resolve();
  });
  await bridge.connect(new PostMessageTransport(frame.contentWindow as Window, frame.contentWindow as Window));
  await bridge.sendSandboxResourceReady({ html: setup.html, ...(setup.csp ? { csp: setup.csp } : {}) });
  await initialized;
  await bridge.sendToolInput({ arguments: setup.toolInput });
  await bridge.sendToolResult(setup.toolResult as never);
};
