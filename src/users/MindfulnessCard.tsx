/**
 * The "Mindfulness minutes" card of a user: a date range, a summary and a stacked bar chart.
 * The chart module (and recharts with it) is loaded lazily, the first time there is data to draw.
 */
import { lazy, Suspense, useMemo, useState } from 'react';
import { Alert, Box, Button, Card, CardContent, CardHeader, CircularProgress, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useRecordContext } from 'react-admin';
import { DateRangePicker } from '../components/DateRangePicker';
import { defaultRange, rangeProblem, todayIn } from '../components/dateRange';
import { isEmpty, totalMinutes } from '../components/mindfulnessSeries';
import type { DateRange, LabdeskDataProvider, MindfulnessMinutes } from '../providers/types';
import type { UserRecord } from './types';

const MindfulnessChart = lazy(() => import('../components/MindfulnessChart'));

const number = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });
const plural = (count: number, one: string, many: string) => `${number.format(count)} ${count === 1 ? one : many}`;

export const MindfulnessCard = () => {
  const record = useRecordContext<UserRecord>();
  if (!record) return null;
  return <MindfulnessPanel userId={record.id} patientTimeZone={record.fallback_time_zone?.id ?? null} />;
};

function MindfulnessPanel({ userId, patientTimeZone }: { userId: string; patientTimeZone: string | null }) {
  // Days are counted in the patient's zone, so "today" (where presets end) is the patient's today.
  // Without a fallback zone the BFF counts days in UTC, so we do too.
  const today = useMemo(() => todayIn(patientTimeZone ?? 'UTC'), [patientTimeZone]);
  const [range, setRange] = useState<DateRange>(() => defaultRange(today));
  const problem = rangeProblem(range);
  const dataProvider = useDataProvider<LabdeskDataProvider>();
  const query = useQuery({
    queryKey: ['users', userId, 'mindfulness-minutes', range.start_date, range.end_date],
    queryFn: () => dataProvider.getMindfulnessMinutes(userId, range),
    enabled: problem === null,
    // A failure here is usually a range the BFF refuses or a slow upstream: retrying on our own
    // would only delay the message. The user gets a "Try again" button instead.
    retry: false,
  });

  const timeZone = query.data?.time_zone ?? patientTimeZone;
  return (
    <Card component="section" aria-label="Mindfulness minutes">
      <CardHeader
        title="Mindfulness minutes"
        subheader={
          timeZone
            ? `Days are in the patient's time zone: ${timeZone}`
            : "The patient has no fallback time zone: each session counts on its own local day, by the offset it was recorded with."
        }
      />
      <CardContent sx={{ pt: 0 }}>
        <DateRangePicker value={range} onChange={setRange} today={today} />
        {problem === null && <MindfulnessBody query={query} range={range} />}
      </CardContent>
    </Card>
  );
}

interface BodyProps {
  query: { data?: MindfulnessMinutes; error: Error | null; isPending: boolean; isFetching: boolean; refetch(): unknown };
  range: DateRange;
}

function MindfulnessBody({ query, range }: BodyProps) {
  if (query.error) {
    const reason = query.error.message.replace(/[.\s]+$/, '') || 'the server did not say why';
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => query.refetch()} disabled={query.isFetching}>
            Try again
          </Button>
        }
      >
        Could not load mindfulness minutes: {reason}. Try again or narrow the date range.
      </Alert>
    );
  }
  if (query.isPending || !query.data) return <Loading label="Loading mindfulness minutes…" />;

  const data = query.data;
  if (isEmpty(data)) {
    return (
      <Alert severity="info">
        No mindfulness sessions between {data.start_date || range.start_date} and {data.end_date || range.end_date}.
      </Alert>
    );
  }
  const minutes = plural(totalMinutes(data), 'minute', 'minutes');
  const sessions = plural(data.sessions, 'session', 'sessions');
  return (
    <Stack spacing={1}>
      <Typography aria-live="polite" sx={{ fontWeight: 500 }}>
        {`${minutes} in ${sessions} between ${data.start_date} and ${data.end_date}`}
      </Typography>
      <Box role="figure" aria-label="Mindfulness minutes per day, stacked by provider" sx={{ width: '100%', minHeight: 300 }}>
        <Suspense fallback={<Loading label="Loading chart…" />}>
          <MindfulnessChart data={data} />
        </Suspense>
      </Box>
    </Stack>
  );
}

const Loading = ({ label }: { label: string }) => (
  <Stack direction="row" spacing={1} sx={{ alignItems: 'center', py: 4 }} role="status">
    <CircularProgress size={20} aria-hidden />
    <Typography color="text.secondary">{label}</Typography>
  </Stack>
);
