/** Human-readable sizes and times for the window. */

const UNITS = ['KiB', 'MiB', 'GiB', 'TiB'];

/**
 * Every size the window shows: binary units, named as such (512 B, 9.7 KiB,
 * 14 MiB), the units its settings are edited in. What the tools tell a model
 * (shared/formatBytes) is left as it is: the window quotes that text, never
 * rewrites it.
 */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  let v = n / 1024;
  let i = 0;
  // Judged as shown (rounded): 1,023.7 KiB reads 1.0 MiB, 9.97 KiB reads 10 KiB.
  while (Math.round(v) >= 1024 && i < UNITS.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v < 9.95 ? v.toFixed(1) : Math.round(v)} ${UNITS[i]}`;
}

export function formatDuration(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${s % 60}s`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h}h ${m % 60}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}

export function formatClock(t: number): string {
  const d = new Date(t);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

/** "today 14:03", "yesterday 09:12", or a date and time: when something happened, for people. */
export function formatWhen(t: number, now = Date.now()): string {
  const d = new Date(t);
  const time = d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const day = (x: Date) => new Date(x.getFullYear(), x.getMonth(), x.getDate()).getTime();
  const days = Math.round((day(new Date(now)) - day(d)) / 86_400_000);
  if (days === 0) return `today ${time}`;
  if (days === 1) return `yesterday ${time}`;
  return `${d.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' })} ${time}`;
}

/**
 * A log line's time: 24-hour with seconds (the same clock as Traffic's, so
 * a History row can be matched to its messages), the day before it when
 * not today.
 */
export function formatStamp(t: number, now = Date.now()): string {
  const d = new Date(t);
  const pad = (n: number) => String(n).padStart(2, '0');
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  if (new Date(now).toDateString() === d.toDateString()) return time;
  return `${d.toLocaleDateString(undefined, { month: 'short', day: 'numeric' })} ${time}`;
}
