import { SHELF_METHODS, type ShelfMethodName, type ShelfMethods } from '../../../shared/shelfApi.js';
import { checkArguments } from './apiArguments.js';

export function isShelfMethod(name: unknown): name is ShelfMethodName {
  return typeof name === 'string' && (SHELF_METHODS as readonly string[]).includes(name);
}

/**
 * Calls one ShelfApi method by name, as both hosts receive them: only names
 * from the table, arguments as an array, each checked against the method's
 * schema (apiArguments.ts) before the service sees it.
 */
export async function dispatch(service: ShelfMethods, method: unknown, args: unknown): Promise<unknown> {
  if (!isShelfMethod(method)) throw new Error(`Unknown method: ${String(method)}`);
  if (!Array.isArray(args)) throw new Error('Arguments must be an array');
  const fn = service[method] as (...a: unknown[]) => Promise<unknown>;
  return fn.apply(service, checkArguments(method, args));
}
