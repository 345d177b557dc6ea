/**
 * One line above the lab-report list: how many reports wait to be read and how long the oldest has
 * waited, refreshed every 5 s with its age shown. Reading is fair across teams, so a long wait here
 * means this team's own backlog. Nothing is shown where the service does not report its queue.
 */
import { Alert } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useDataProvider } from 'react-admin';
import { pollMs } from '../components/polling';
import type { LabdeskDataProvider } from '../providers/types';
import type { ParserQueueStatus } from './types';

const REFRESH_MS = 5000;

/** "40 s", "3 min", "2 h 5 min": how long, in words a person reads at a glance. */
export function waitInWords(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return `${hours} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`;
}

const reports = (n: number) => `${n} report${n === 1 ? '' : 's'}`;

export function queueSentence(q: Extract<ParserQueueStatus, { available: true }>): string {
  if (q.queued === 0 && q.parsing === 0) return 'Nothing waiting to be read.';
  const parts: string[] = [];
  if (q.queued > 0) parts.push(`${reports(q.queued)} waiting to be read`);
  if (q.parsing > 0) parts.push(`${q.parsing} being read`);
  const oldest = q.queued > 0 && q.oldestWaitSeconds !== null ? ` · the oldest has waited ${waitInWords(q.oldestWaitSeconds)}` : '';
  return `${parts.join(' · ')}${oldest}.`;
}

export const ParserQueueLine = () => {
  const dataProvider = useDataProvider<LabdeskDataProvider>();
  const { data, dataUpdatedAt, isError } = useQuery({
    queryKey: ['parser-jobs', 'queue'],
    queryFn: () => dataProvider.getParserQueue(),
    refetchInterval: pollMs(REFRESH_MS),
  });
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  if (isError || !data || !data.available) return null;
  const busy = data.queued > 0 || data.parsing > 0;
  const age = Math.max(0, Math.round((now - dataUpdatedAt) / 1000));
  return (
    <Alert severity={busy ? 'info' : 'success'} role="status" sx={{ mb: 1 }} data-testid="parser-queue">
      {queueSentence(data)} <span style={{ opacity: 0.7 }}>(updated {age < 2 ? 'just now' : `${age} s ago`})</span>
    </Alert>
  );
};
