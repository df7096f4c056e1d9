import type { CallToolResult } from '@modelcontextprotocol/client';
import type { App } from '@modelcontextprotocol/ext-apps';

import { APP_TOOLS, type AppChangesResult, type AppFindResult, type AppListResult, type AppSearchResult } from '../../shared/shelfApp';

/** A tool's `isError` result, as an error carrying the shelf's code (1005: the person did not allow the read). */
export class ToolFailure extends Error {
  constructor(
    message: string,
    readonly code: number | null,
    readonly data?: unknown,
  ) {
    super(message);
  }

  static of(result: CallToolResult): ToolFailure {
    const error = (result.structuredContent as { error?: { code?: unknown; message?: unknown; data?: unknown } } | undefined)?.error;
    const text = result.content.find((c) => c.type === 'text')?.text;
    return new ToolFailure(
      typeof error?.message === 'string' ? error.message : (text ?? 'The tool failed'),
      typeof error?.code === 'number' ? error.code : null,
      error?.data,
    );
  }
}

/** The view's only way to the shelf: the app's tools, through the host. */
export class ShelfCalls {
  constructor(private readonly app: App) {}

  private async structured<T>(name: string, args: Record<string, unknown>): Promise<T> {
    const result = await this.app.callServerTool({ name, arguments: args });
    if (result.isError) throw ToolFailure.of(result);
    return result.structuredContent as T;
  }

  list(folder?: string, dir?: string, cursor?: string): Promise<AppListResult> {
    return this.structured(APP_TOOLS.list, { ...(folder !== undefined ? { folder } : {}), ...(dir ? { dir } : {}), ...(cursor ? { cursor } : {}) });
  }

  find(filter: string, folder?: string): Promise<AppFindResult> {
    return this.structured(APP_TOOLS.find, { filter, ...(folder ? { folder } : {}) });
  }

  search(query: string, folder?: string, cursor?: string): Promise<AppSearchResult> {
    return this.structured(APP_TOOLS.search, { query, ...(folder ? { folder } : {}), ...(cursor ? { cursor } : {}) });
  }

  /** This client's changes waiting for the person's decision in the MCP Shelf window. */
  changes(): Promise<AppChangesResult> {
    return this.structured(APP_TOOLS.changes, {});
  }

  /** A file as the read_resource tool gives it (an `isError` result included: the preview shows it); `pages` picks a document's parts. */
  read(uri: string, pages?: string): Promise<CallToolResult> {
    return this.app.callServerTool({ name: APP_TOOLS.read, arguments: { uri, ...(pages ? { pages } : {}) } });
  }
}
