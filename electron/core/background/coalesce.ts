/** A coalesced call: asking again while one is due adds nothing; cancel() drops the one due. */
export interface Coalesced {
  (): void;
  cancel(): void;
}

/**
 * Runs `run` once, `ms` after the first of a burst of calls: the window's
 * events (folders changed, status, new history entries) go out at most that
 * often however fast their causes come.
 */
export function coalesce(run: () => void, ms: number): Coalesced {
  let timer: NodeJS.Timeout | null = null;
  const call = () => {
    timer ??= setTimeout(() => {
      timer = null;
      run();
    }, ms);
  };
  call.cancel = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };
  return call;
}
