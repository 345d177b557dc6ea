/**
 * The menu: the overview first, then every resource with a list (so a new resource needs no change
 * here), with the count of what waits beside orders, lab reports and appointments. The counts come
 * from the overview's own query (same key), so the badges cost no request of their own; on another
 * page they are asked for once that page's own first requests are answered (afterFirstAnswers.ts).
 */
import { Chip } from '@mui/material';
import { Menu as RaMenu, useGetResourceLabel, useResourceDefinitions } from 'react-admin';
import { isQueueError } from '../../server/bff/api/constants';
import type { Overview, OverviewQueueError } from '../../server/bff/api/overview';
import { useAfterFirstAnswers } from '../components/afterFirstAnswers';
import { countText, useOverview } from '../dashboard/useOverview';

interface Badge {
  count: number;
  capped: boolean;
  what: string;
}

/** Which queue's count stands beside which resource (none while a queue could not be counted: its card says why). */
const counted = <Q extends object>(queue: Q | undefined) => (queue && !isQueueError(queue) ? (queue as Exclude<Q, OverviewQueueError>) : undefined);
const BADGES: Record<string, (o: Overview) => Badge | undefined> = {
  orders: (o) => {
    const q = counted(o.orders_needing_attention);
    return q && { count: q.count, capped: false, what: 'need attention' };
  },
  'parser-jobs': (o) => {
    const q = counted(o.reports_awaiting_review);
    return q && { ...q, what: 'awaiting review' };
  },
  appointments: (o) => {
    const q = counted(o.appointment_requests_waiting);
    return q && { ...q, what: 'waiting for a time' };
  },
};

const Labelled = ({ label, badge }: { label: string; badge: Badge }) => (
  <>
    {label}
    <Chip component="span" size="small" color="warning" label={countText(badge)} aria-label={`${countText(badge)} ${badge.what}`} sx={{ ml: 1, height: 20 }} />
  </>
);

export const Menu = () => {
  const resources = useResourceDefinitions();
  const getLabel = useGetResourceLabel();
  const { data } = useOverview({ enabled: useAfterFirstAnswers() });
  return (
    <RaMenu>
      <RaMenu.DashboardItem primaryText="Overview" />
      {Object.keys(resources)
        .filter((name) => resources[name]?.hasList)
        .map((name) => {
          const badge = data && BADGES[name]?.(data);
          // Only a badge replaces the label: without one react-admin's own label stays.
          const text = badge && badge.count > 0 ? { primaryText: <Labelled label={getLabel(name, 2)} badge={badge} /> } : {};
          return <RaMenu.ResourceItem key={name} name={name} {...text} />;
        })}
    </RaMenu>
  );
};
