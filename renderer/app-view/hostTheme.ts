import { applyDocumentTheme, applyHostFonts, applyHostStyleVariables, type McpUiHostContext, type McpUiStyleVariableKey } from '@modelcontextprotocol/ext-apps';

/**
 * The window's sheets (renderer/src/styles/tokens.css and the features') style the app too; its
 * tokens take the host's values where the host gives them (MCP Apps
 * standard variables), and its light-dark() colours follow the host's
 * theme (applyDocumentTheme sets color-scheme). What the host does not give
 * stays the window's own.
 */
const TOKENS: ReadonlyArray<[McpUiStyleVariableKey, string]> = [
  ['--color-background-primary', '--surface'],
  ['--color-background-secondary', '--bg'],
  ['--color-background-tertiary', '--surface-2'],
  ['--color-text-primary', '--text'],
  ['--color-text-secondary', '--muted'],
  ['--color-border-primary', '--border-strong'],
  ['--color-border-secondary', '--border'],
  ['--color-text-danger', '--error'],
  ['--color-background-danger', '--error-soft'],
  ['--color-text-success', '--ok'],
  ['--color-text-warning', '--warn'],
  ['--font-sans', '--sans'],
  ['--font-mono', '--mono'],
  ['--border-radius-md', '--radius'],
];

/** Applies what the host says of its look: theme, variables, fonts (a font the CSP blocks simply falls back). */
export function applyHostLook(context: McpUiHostContext): void {
  const root = document.documentElement;
  if (context.theme) applyDocumentTheme(context.theme);
  const variables = context.styles?.variables;
  if (variables) {
    applyHostStyleVariables(variables, root);
    for (const [host, ours] of TOKENS) if (variables[host]) root.style.setProperty(ours, `var(${host})`);
  }
  if (context.styles?.css?.fonts) applyHostFonts(context.styles.css.fonts);
}

/**
 * Fills the frame when the host fixes its height (or shows the app full
 * screen); otherwise takes a height of its own, within the host's maximum,
 * which auto-resize reports to the host.
 */
export function applyHostSize(context: McpUiHostContext): void {
  const root = document.documentElement;
  const dims = context.containerDimensions as { height?: number; maxHeight?: number } | undefined;
  const fills = context.displayMode === 'fullscreen' || dims?.height !== undefined;
  const height = fills ? '100vh' : `${Math.min(dims?.maxHeight ?? INLINE_HEIGHT, INLINE_HEIGHT)}px`;
  root.style.setProperty('--app-height', height);
  root.dataset.display = context.displayMode ?? 'inline';
}

/** The app's height inline in a conversation when the host leaves it to the app. */
const INLINE_HEIGHT = 560;
