/**
 * The patient's biomarkers: the latest value of each analyte with its flag and trend, and for the
 * chosen analyte a chart over time (reference band, each point's source) in the patient's zone.
 */
import { lazy, Suspense, useState } from 'react';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import { Alert, Box, Button, Card, CardContent, CardHeader, Chip, CircularProgress, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useRecordContext } from 'react-admin';
import type { PatientBiomarkers } from '../../../server/bff/api';
import { flagOf } from '../../orders/results/resultFlags';
import type { LabdeskDataProvider } from '../../providers/types';
import type { UserRecord } from '../types';
import { formatIn, sourceLabel } from './biomarkerSeries';

const BiomarkerChart = lazy(() => import('./BiomarkerChart'));

type Summary = PatientBiomarkers['biomarkers'][number];

const Trend = ({ trend }: { trend: Summary['trend'] }) => {
  if (trend === 'up') return <ArrowUpwardIcon fontSize="small" titleAccess="Rising" />;
  if (trend === 'down') return <ArrowDownwardIcon fontSize="small" titleAccess="Falling" />;
  if (trend === 'flat') return <ArrowForwardIcon fontSize="small" titleAccess="Stable" />;
  return null;
};

export const BiomarkersTab = () => {
  const record = useRecordContext<UserRecord>();
  if (!record) return null;
  return <BiomarkersPanel userId={record.id} timeZone={record.fallback_time_zone?.id ?? null} />;
};

function BiomarkersPanel({ userId, timeZone }: { userId: string; timeZone: string | null }) {
  const dataProvider = useDataProvider<LabdeskDataProvider>();
  const [chosen, setChosen] = useState<string | null>(null);
  const summaries = useQuery({ queryKey: ['users', userId, 'biomarkers'], queryFn: () => dataProvider.getPatientBiomarkers(userId), retry: false });
  const list = summaries.data?.biomarkers ?? [];
  const selected = chosen ?? list.find((b) => b.loinc && b.count > 1)?.loinc ?? list.find((b) => b.loinc)?.loinc ?? null;
  const history = useQuery({
    queryKey: ['users', userId, 'biomarkers', selected],
    queryFn: () => dataProvider.getPatientBiomarkerHistory(userId, selected!),
    enabled: selected !== null,
    retry: false,
  });
  const zoneNote = timeZone ? `Times in the patient's time zone (${timeZone})` : 'Times in your time zone (the patient has none on file)';

  if (summaries.isPending) return <CircularProgress size={24} aria-label="Loading biomarkers" />;
  if (summaries.error) {
    return (
      <Alert severity="error" action={<Button onClick={() => void summaries.refetch()}>Try again</Button>}>
        The biomarkers could not be loaded: {summaries.error instanceof Error ? summaries.error.message : 'unknown error'}
      </Alert>
    );
  }
  if (list.length === 0) {
    return (
      <Typography color="text.secondary" sx={{ p: 2 }}>
        No lab values yet. They appear here when an order of this patient has results, or when an uploaded lab report is approved.
      </Typography>
    );
  }
  const current = list.find((b) => b.loinc === selected);
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Card component="section" aria-label="Biomarker chart">
        <CardHeader title={current ? `${current.name}${history.data?.unit ? ` (${history.data.unit})` : ''}` : 'Chart'} subheader={zoneNote} />
        <CardContent sx={{ pt: 0 }}>
          {history.isPending && selected ? (
            <CircularProgress size={20} aria-label="Loading the chart" />
          ) : history.error ? (
            <Alert severity="error">The history could not be loaded.</Alert>
          ) : history.data ? (
            <Suspense fallback={<CircularProgress size={20} aria-label="Loading the chart" />}>
              <BiomarkerChart history={history.data} timeZone={timeZone} />
              <Typography variant="caption" color="text.secondary">
                {history.data.observations.length} value{history.data.observations.length === 1 ? '' : 's'}:{' '}
                {history.data.observations.map((o) => `${o.result}${o.unit ? ` ${o.unit}` : ''} (${sourceLabel(o.source)}, ${formatIn(o.observed_at, timeZone)})`).join('; ')}
              </Typography>
            </Suspense>
          ) : (
            <Typography color="text.secondary">Choose an analyte with a LOINC code below to see it over time.</Typography>
          )}
        </CardContent>
      </Card>
      <Card component="section" aria-label="Latest values">
        <CardHeader title="Latest values" subheader="Each analyte's most recent result; choose one to chart it" />
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label="Biomarkers">
            <TableHead>
              <TableRow>
                <TableCell>Analyte</TableCell>
                <TableCell>Latest</TableCell>
                <TableCell>Flag</TableCell>
                <TableCell>Trend</TableCell>
                <TableCell>When</TableCell>
                <TableCell>Source</TableCell>
                <TableCell align="right">Values</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {list.map((b) => {
                const flag = flagOf(b.latest);
                return (
                  <TableRow
                    key={b.loinc ?? b.slug}
                    hover={!!b.loinc}
                    selected={b.loinc !== null && b.loinc === selected}
                    onClick={b.loinc ? () => setChosen(b.loinc) : undefined}
                    sx={{ cursor: b.loinc ? 'pointer' : undefined }}
                    aria-label={b.name}
                  >
                    <TableCell>{b.name}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>
                      {b.latest.result}
                      {b.latest.unit ? ` ${b.latest.unit}` : ''}
                    </TableCell>
                    <TableCell>{flag && <Chip size="small" label={flag.code} title={flag.label} color={flag.severity === 'critical' ? 'error' : 'warning'} />}</TableCell>
                    <TableCell>
                      <Trend trend={b.trend} />
                    </TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatIn(b.latest.observed_at, timeZone)}</TableCell>
                    <TableCell>{sourceLabel(b.latest.source)}</TableCell>
                    <TableCell align="right">{b.count}</TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </Box>
      </Card>
    </Box>
  );
}
