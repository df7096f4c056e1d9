import { dispatch } from '../../../electron/core/service/dispatch.js';
import type { ShelfService } from '../../../electron/core/service/shelfService.js';
import { createShelfClient, type ShelfApi } from '../../../shared/shelfApi.js';

/**
 * The real ShelfApi of a real in-process service, for rendering components
 * without a socket: the same table and dispatch the hosts use.
 */
export function inProcessApi(service: ShelfService): ShelfApi {
  return createShelfClient(
    (method, args) => dispatch(service, method, JSON.parse(JSON.stringify(args)) as unknown[]),
    (event, listener) => service.on(event, listener as never),
  );
}
