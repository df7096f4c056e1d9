import type { Interceptor } from '../transport/socketTransport.js';

/** The first of `paths` that takes a request answers it; one none takes goes to the SDK. */
export function fastPaths(...paths: Interceptor[]): Interceptor {
  return (request, cancel) => {
    for (const take of paths) {
      const reply = take(request, cancel);
      if (reply) return reply;
    }
    return null;
  };
}
