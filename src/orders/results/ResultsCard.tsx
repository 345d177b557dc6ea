/**
 * The order's lab results: every result with its value, unit, range bar, flag and range, comments
 * and notes; the results the lab could not produce and why; partial vs final; the result report
 * (PDF); and a critical value in a banner until someone acknowledges it.
 */
import DownloadIcon from '@mui/icons-material/Download';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CardHeader,
  Chip,
  CircularProgress,
  List,
  ListItem,
  ListItemText,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { usePermissions } from 'react-admin';
import type { BiomarkerResult } from '../../../server/contract';
import { can } from '../../auth/permissions';
import { API_URL } from '../../providers/dataProvider';
import { formatInstant } from '../OrderTimeline';
import { isFinal } from '../CancelOrderButton';
import type { OrderRecord } from '../types';
import { CriticalBanner } from './CriticalBanner';
import { RangeBar } from './RangeBar';
import { failureText, flagOf, reportStatusText } from './resultFlags';
import { useOrderResults } from './useOrderResults';

export const resultsPdfUrl = (orderId: string) => `${API_URL}/orders/${encodeURIComponent(orderId)}/results.pdf`;

const numeric = (r: BiomarkerResult): number | null => {
  const m = /^[<>]?=?\s*(-?\d+(?:\.\d+)?)$/.exec(r.result.trim());
  return m ? Number(m[1]) : null;
};

const ResultRow = ({ r }: { r: BiomarkerResult }) => {
  const flag = flagOf(r);
  if (r.type === 'comment') {
    return (
      <TableRow>
        <TableCell>{r.name}</TableCell>
        <TableCell colSpan={4}>
          <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap' }}>
            {r.result}
          </Typography>
        </TableCell>
      </TableRow>
    );
  }
  const value = numeric(r);
  return (
    <TableRow data-testid="result-row" sx={flag?.severity === 'critical' ? { bgcolor: 'error.50', '& td': { fontWeight: 600 } } : undefined}>
      <TableCell>
        {r.name}
        {r.notes && (
          <Typography variant="caption" color="text.secondary" component="div" sx={{ whiteSpace: 'pre-wrap' }}>
            {r.notes}
          </Typography>
        )}
      </TableCell>
      <TableCell sx={{ fontWeight: flag ? 600 : undefined, whiteSpace: 'nowrap' }}>
        {r.result}
        {r.unit ? ` ${r.unit}` : ''}
      </TableCell>
      <TableCell>
        {flag && <Chip size="small" label={flag.code} title={flag.label} aria-label={flag.label} color={flag.severity === 'critical' ? 'error' : 'warning'} />}
      </TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{r.reference_range ?? ''}</TableCell>
      <TableCell>
        <RangeBar value={value} min={r.min_range_value} max={r.max_range_value} label={`${r.name} ${r.result} against ${r.reference_range ?? 'no range'}`} />
      </TableCell>
    </TableRow>
  );
};

/** Results in the order's markers (panels as headings), in the lab's order. */
function byMarker(results: BiomarkerResult[]): [string, BiomarkerResult[]][] {
  const groups = new Map<string, BiomarkerResult[]>();
  for (const r of results) {
    const marker = r.source_markers?.[0]?.name ?? 'Results';
    groups.set(marker, [...(groups.get(marker) ?? []), r]);
  }
  return [...groups];
}

export const ResultsCard = ({ order }: { order: OrderRecord }) => {
  const { permissions } = usePermissions();
  const orderId = String(order.id);
  const ended = order.status === 'cancelled' || order.status === 'failed';
  const query = useOrderResults(orderId, isFinal(order), ended);
  if (!can(permissions, 'results:read')) return null;
  const results = query.data;
  const header = (subheader?: string, action?: React.ReactNode) => <CardHeader title="Results" subheader={subheader} action={action} />;

  if (query.isPending) {
    return (
      <Card component="section" aria-label="Results">
        {header()}
        <CardContent sx={{ pt: 0 }}>
          <CircularProgress size={20} aria-label="Loading results" />
        </CardContent>
      </Card>
    );
  }
  if (query.error) {
    return (
      <Card component="section" aria-label="Results">
        {header()}
        <CardContent sx={{ pt: 0 }}>
          <Alert severity="error" action={<Button onClick={() => void query.refetch()}>Try again</Button>}>
            The results could not be loaded: {query.error instanceof Error ? query.error.message : 'unknown error'}
          </Alert>
        </CardContent>
      </Card>
    );
  }
  if (!results) {
    return (
      <Card component="section" aria-label="Results">
        {header()}
        <CardContent sx={{ pt: 0 }}>
          <Typography variant="body2" color="text.secondary">
            {ended
              ? 'This order ended without results.'
              : 'No results yet. They arrive once the lab has tested the sample; this page checks again every 30 seconds.'}
          </Typography>
        </CardContent>
      </Card>
    );
  }

  const meta = results.metadata;
  const missing = results.missing_results ?? [];
  const subheader = [
    reportStatusText(meta.status),
    meta.date_collected && `collected ${formatInstant(meta.date_collected)}`,
    `reported ${formatInstant(meta.date_reported)}`,
    meta.laboratory,
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <Card component="section" aria-label="Results">
      {header(
        subheader,
        <Button component="a" href={resultsPdfUrl(orderId)} target="_blank" rel="noopener" startIcon={<DownloadIcon />} size="small">
          Result report (PDF)
        </Button>,
      )}
      <CardContent sx={{ pt: 0 }}>
        <CriticalBanner orderId={orderId} results={results} />
        {meta.status !== 'final' && (
          <Alert severity={ended ? 'warning' : 'info'} sx={{ mb: 2 }}>
            {ended
              ? `Partial results: the order was ${order.status}, so the lab will not report the rest.`
              : 'Partial results: the lab is still working on the rest of this order.'}
          </Alert>
        )}
        {results.results.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            The lab has reported no values yet.
          </Typography>
        ) : (
          <Box sx={{ overflowX: 'auto' }}>
            <Table size="small" aria-label="Result values">
              <TableHead>
                <TableRow>
                  <TableCell>Test</TableCell>
                  <TableCell>Result</TableCell>
                  <TableCell>Flag</TableCell>
                  <TableCell>Reference range</TableCell>
                  <TableCell>Against the range</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {byMarker(results.results).map(([marker, rows]) => [
                  <TableRow key={`h-${marker}`}>
                    <TableCell colSpan={5} sx={{ fontWeight: 600, bgcolor: 'action.hover' }}>
                      {marker}
                    </TableCell>
                  </TableRow>,
                  ...rows.map((r, i) => <ResultRow key={`${marker}-${r.slug ?? r.name}-${i}`} r={r} />),
                ])}
              </TableBody>
            </Table>
          </Box>
        )}
        {missing.length > 0 && (
          <Box sx={{ mt: 2 }} component="section" aria-label="Results not reported">
            <Typography variant="subtitle2">Not reported</Typography>
            <List dense>
              {missing.map((m) => (
                <ListItem key={m.slug} disableGutters>
                  <ListItemText primary={`${m.name}: ${failureText(m)}`} secondary={m.note ?? undefined} />
                </ListItem>
              ))}
            </List>
          </Box>
        )}
      </CardContent>
    </Card>
  );
};
