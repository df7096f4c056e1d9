import { useCallback, useEffect, useState } from 'react';

import type { ChangeDecision, ChangeProposal } from '../../../shared/changeTypes';
import type { ShelfApi } from '../../../shared/shelfApi';

export interface ChangesState {
  /** Changes a model proposed, waiting for the person's decision, oldest first. */
  proposals: ChangeProposal[];
  answer(id: number, decision: ChangeDecision): Promise<void>;
}

/**
 * The proposals waiting for a decision: loaded when the connection opens,
 * then replaced whole by each `changes` event (the core sends the full list
 * whenever one comes or goes: answered elsewhere, timed out, client gone).
 */
export function useChanges(api: ShelfApi, live: boolean, fail: (err: unknown) => void): ChangesState {
  const [proposals, setProposals] = useState<ChangeProposal[]>([]);

  useEffect(() => {
    if (!live) return;
    let current = true;
    void api.pendingChanges().then((waiting) => current && setProposals(waiting), fail);
    const off = api.on('changes', setProposals);
    return () => {
      current = false;
      off();
    };
  }, [api, live, fail]);

  const answer = useCallback(
    async (id: number, decision: ChangeDecision) => {
      // No longer waiting (answered elsewhere, timed out): the changes event moves the prompt on either way.
      await api.answerChange(id, decision).catch(fail);
    },
    [api, fail],
  );

  return { proposals, answer };
}
