/**
 * The request id a `notifications/cancelled` names, or undefined when the
 * message is not one. Only a notification cancels: a request of that name
 * (it has an id) is answered by the SDK as an unknown method and cancels
 * nothing, so it must free no slot, end no listen and give back no budget.
 * One test for the socket's slots, its listens and HTTP's listens.
 */
export function cancelledRequestId(message: unknown): string | number | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message) || 'id' in message) return undefined;
  const m = message as { method?: unknown; params?: { requestId?: unknown } };
  if (m.method !== 'notifications/cancelled') return undefined;
  const id = m.params?.requestId;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}
