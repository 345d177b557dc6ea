/**
 * One analyte over time: the reference band, each value as a point marked by its source (circle: a
 * lab order; square: an uploaded report), times in the patient's zone. Loaded lazily with recharts.
 */
import { Typography } from '@mui/material';
import { CartesianGrid, ComposedChart, Legend, Line, ReferenceArea, ResponsiveContainer, Scatter, Tooltip, XAxis, YAxis } from 'recharts';
import type { PatientBiomarkerHistory } from '../../../server/bff/api';
import { chartPoints, referenceBand, sourceLabel, valueAxis, type ChartPoint } from './biomarkerSeries';

const dateOnly = (timeZone: string | null) => (at: number) =>
  new Date(at).toLocaleDateString(undefined, { month: 'short', day: 'numeric', year: '2-digit', ...(timeZone ? { timeZone } : {}) });

const Dot = (props: { cx?: number; cy?: number; payload?: ChartPoint }) => {
  const { cx = 0, cy = 0, payload } = props;
  const colour = payload?.interpretation === 'critical' ? '#c62828' : payload?.interpretation === 'abnormal' ? '#ef6c00' : '#1565c0';
  return payload?.source === 'lab_report' ? (
    <rect x={cx - 5} y={cy - 5} width={10} height={10} fill={colour} stroke="#fff" strokeWidth={1.5} />
  ) : (
    <circle cx={cx} cy={cy} r={5.5} fill={colour} stroke="#fff" strokeWidth={1.5} />
  );
};

const PointTooltip = ({ active, payload }: { active?: boolean; payload?: { payload: ChartPoint }[] }) => {
  const p = payload?.[0]?.payload;
  if (!active || !p) return null;
  return (
    <div style={{ background: '#fff', border: '1px solid #ccc', padding: 8, fontSize: 13 }}>
      <div>
        <strong>{p.reported}</strong>
        {p.interpretation && p.interpretation !== 'normal' ? ` (${p.interpretation})` : ''}
      </div>
      <div>{p.when}</div>
      <div>{sourceLabel(p.source)}</div>
    </div>
  );
};

export default function BiomarkerChart({ history, timeZone, height = 280 }: { history: PatientBiomarkerHistory; timeZone: string | null; height?: number }) {
  const { points } = chartPoints(history, timeZone);
  const band = referenceBand(history);
  const domain = valueAxis(points.map((p) => p.value), band);
  if (!domain) {
    return <Typography color="text.secondary">No numeric values in a common unit to chart; see the table below.</Typography>;
  }
  const orders = points.filter((p) => p.source !== 'lab_report');
  const reports = points.filter((p) => p.source === 'lab_report');
  return (
    <ResponsiveContainer width="100%" height={height}>
      <ComposedChart data={points} margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey="at" type="number" scale="time" domain={['dataMin', 'dataMax']} tickFormatter={dateOnly(timeZone)} padding={{ left: 24, right: 24 }} />
        <YAxis domain={domain} label={{ value: history.unit ?? '', angle: -90, position: 'insideLeft' }} tickFormatter={(v: number) => String(Math.round(v * 100) / 100)} />
        {(band.low !== null || band.high !== null) && (
          <ReferenceArea y1={band.low ?? domain[0]} y2={band.high ?? domain[1]} fill="#2e7d32" fillOpacity={0.12} ifOverflow="extendDomain" label={{ value: 'reference range', position: 'insideTopRight', fontSize: 11 }} />
        )}
        <Tooltip content={<PointTooltip />} />
        <Legend />
        <Line dataKey="value" name={history.name} stroke="#90a4ae" dot={false} isAnimationActive={false} legendType="none" />
        <Scatter data={orders} dataKey="value" name="Lab order" fill="#1565c0" shape={<Dot />} isAnimationActive={false} />
        <Scatter data={reports} dataKey="value" name="Uploaded report" fill="#1565c0" shape={<Dot />} legendType="square" isAnimationActive={false} />
      </ComposedChart>
    </ResponsiveContainer>
  );
}

