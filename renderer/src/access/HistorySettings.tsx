import { useEffect, useState } from 'react';

import type { ShelfApi } from '../../../shared/shelfApi';

const MIB = 1024 * 1024;

/** How long the history is kept, how large it may grow, and how long an ask waits: saved in settings. */
export function HistorySettings({ api, notify, fail }: { api: ShelfApi; notify: (m: string) => void; fail: (e: unknown) => void }) {
  const [open, setOpen] = useState(false);
  const [days, setDays] = useState('');
  const [mib, setMib] = useState('');
  const [timeout, setTimeoutSeconds] = useState('');

  useEffect(() => {
    if (!open) return;
    api.getSettings().then((s) => {
      setDays(String(s.history.maxAgeDays));
      setMib(String(Math.round(s.history.maxBytes / MIB)));
      setTimeoutSeconds(String(s.askTimeoutSeconds));
    }, fail);
  }, [api, open, fail]);

  if (!open) {
    return (
      <button type="button" className="btn btn-small" onClick={() => setOpen(true)} data-testid="history-settings">
        Retention…
      </button>
    );
  }
  return (
    <form
      className="inline-form"
      onSubmit={(e) => {
        e.preventDefault();
        api
          .updateSettings({ history: { maxAgeDays: Number(days), maxBytes: Number(mib) * MIB }, askTimeoutSeconds: Number(timeout) })
          .then(() => {
            setOpen(false);
            notify('History settings saved');
          }, fail);
      }}
      onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}
    >
      <label className="small">
        Keep for{' '}
        <input className="input input-small input-num" type="number" min={1} max={3650} required value={days} onChange={(e) => setDays(e.target.value)} /> days
      </label>
      <label className="small">
        up to <input className="input input-small input-num" type="number" min={1} max={1024} required value={mib} onChange={(e) => setMib(e.target.value)} /> MiB
      </label>
      <label className="small">
        Ask waits{' '}
        <input className="input input-small input-num" type="number" min={1} max={3600} required value={timeout} onChange={(e) => setTimeoutSeconds(e.target.value)} /> s
      </label>
      <button type="submit" className="btn btn-small btn-primary">
        Save
      </button>
      <button type="button" className="btn btn-small" onClick={() => setOpen(false)}>
        Cancel
      </button>
    </form>
  );
}
