import { useEffect, useState } from 'react';
import { Box, LinearProgress, Typography } from '@mui/material';

/** "2 min 5 s" / "45 s" / "1 h 3 min": waits are shown to the second only while that matters. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h) return `${h} h${m ? ` ${m} min` : ''}`;
  if (m) return `${m} min${s ? ` ${s} s` : ''}`;
  return `${s} s`;
}

/** How far into `totalMs` we are since `since`, in percent (0–100); null when it cannot be told. */
export function elapsedPercent(since: string | null | undefined, totalMs: number | null | undefined, now: number): number | null {
  const start = since ? Date.parse(since) : Number.NaN;
  if (!Number.isFinite(start) || !totalMs || totalMs <= 0) return null;
  return Math.min(100, Math.max(0, ((now - start) / totalMs) * 100));
}

/**
 * A wait against a deadline: a determinate bar of the time waited since `since` out of `totalMs`,
 * with the words under it; an indeterminate bar when either is unknown. Ticks every second on its
 * own, so the bar moves between the answers of whatever is polling.
 */
export const ElapsedProgress = ({ since, totalMs, label }: { since: string | null | undefined; totalMs: number | null | undefined; label: string }) => {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const percent = elapsedPercent(since, totalMs, now);
  const waited = since ? now - Date.parse(since) : Number.NaN;
  return (
    <Box>
      {percent === null ? (
        <LinearProgress aria-label={label} />
      ) : (
        <LinearProgress variant="determinate" value={percent} aria-label={label} />
      )}
      <Typography variant="caption" color="text.secondary" component="div" sx={{ mt: 0.5 }}>
        {percent !== null && totalMs && Number.isFinite(waited)
          ? `Waited ${formatDuration(waited)} of ${formatDuration(totalMs)}`
          : Number.isFinite(waited)
            ? `Waited ${formatDuration(waited)}`
            : 'Waiting'}
      </Typography>
    </Box>
  );
};
