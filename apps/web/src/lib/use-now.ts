/**
 * The current time, refreshed every `intervalMs` (default 60,000 ms): screens that say whether an
 * event day is today stay right while they are open through midnight or the day's cut-off.
 */
import { useEffect, useState } from 'react';

/** The current time as a Date, re-rendering every `intervalMs` milliseconds. */
export function useNow(intervalMs = 60_000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
