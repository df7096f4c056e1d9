import { useEffect, useState } from 'react';

import type { ClientInfo } from '../../../shared/shelfApi';

/**
 * The connected clients with current request counts: the `clients` event
 * (`announced`) comes when clients come, go or name themselves, not with
 * every request, so the list is asked for once a second while its user is
 * shown. A newer announcement wins over a poll made before it.
 */
export function useClientList(announced: ClientInfo[], listClients?: () => Promise<ClientInfo[]>): ClientInfo[] {
  const [polled, setPolled] = useState<{ of: ClientInfo[]; list: ClientInfo[] } | null>(null);
  useEffect(() => {
    if (!listClients) return;
    let current = true;
    const timer = setInterval(
      () =>
        void listClients().then(
          (list) => current && setPolled({ of: announced, list }),
          () => undefined,
        ),
      1000,
    );
    return () => {
      current = false;
      clearInterval(timer);
    };
  }, [listClients, announced]);
  return polled && polled.of === announced ? polled.list : announced;
}
