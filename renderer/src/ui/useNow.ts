import { useEffect, useState } from 'react';

/**
 * The time, ticking every `everyMs` while the component using it is shown.
 * It belongs in the component that shows a relative time, never in a hook
 * of the whole window: every tick re-renders only its user.
 */
export function useNow(everyMs = 1000): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const tick = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(tick);
  }, [everyMs]);
  return now;
}
