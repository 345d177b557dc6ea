/** How old the counts on screen are ("updated 20 s ago"), so a stale overview is never mistaken for a fresh one. */
import { Typography } from '@mui/material';
import { useEffect, useState } from 'react';

export function ageText(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 5) return 'updated just now';
  if (s < 60) return `updated ${s} s ago`;
  return `updated ${Math.floor(s / 60)} min ago`;
}

export const UpdatedAgo = ({ at }: { at: number }) => {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <Typography variant="body2" color="text.secondary" role="status">
      {ageText(now - at)}
    </Typography>
  );
};
