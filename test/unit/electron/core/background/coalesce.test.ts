import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { coalesce } from '../../../../../electron/core/background/coalesce.js';

describe('coalesce', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs once, ms after the first call of a burst', () => {
    const run = vi.fn();
    const soon = coalesce(run, 100);
    soon();
    vi.advanceTimersByTime(60);
    soon();
    soon();
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(40);
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1000);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('runs again for a call after the last run', () => {
    const run = vi.fn();
    const soon = coalesce(run, 100);
    soon();
    vi.advanceTimersByTime(100);
    soon();
    vi.advanceTimersByTime(100);
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('cancel drops the run that was due, and a later call schedules anew', () => {
    const run = vi.fn();
    const soon = coalesce(run, 100);
    soon();
    soon.cancel();
    vi.advanceTimersByTime(500);
    expect(run).not.toHaveBeenCalled();
    soon();
    vi.advanceTimersByTime(100);
    expect(run).toHaveBeenCalledTimes(1);
  });
});
