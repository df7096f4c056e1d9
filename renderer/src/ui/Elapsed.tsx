import { formatDuration } from '../format';
import { useNow } from './useNow';

/** "3m 12s" since `since`, kept current once a second (only this text re-renders). */
export function Elapsed({ since }: { since: number }) {
  const now = useNow();
  return <>{formatDuration(Math.max(0, now - since))}</>;
}
