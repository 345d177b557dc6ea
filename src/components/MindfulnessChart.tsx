/**
 * Daily mindfulness minutes as bars stacked by provider.
 *
 * This module is the only one that imports recharts, and it is only ever loaded through
 * `React.lazy`, so recharts (large) lands in its own chunk and costs nothing until a user
 * opens a chart.
 */
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { MindfulnessMinutes } from '../providers/types';
import { distinctColours } from './ProviderAvatar';
import { chartRows, providerSeries } from './mindfulnessSeries';

const minutes = (value: unknown) => `${typeof value === 'number' ? Math.round(value * 10) / 10 : String(value)} min`;
// "2026-05-01" → "05-01": the year is in the date inputs right above the chart.
const shortDate = (date: unknown) => (typeof date === 'string' ? date.slice(5) : String(date));

export default function MindfulnessChart({ data, height = 300 }: { data: MindfulnessMinutes; height?: number }) {
  const series = providerSeries(data);
  const rows = chartRows(data, series);
  const colours = distinctColours(series.map((s) => s.slug));
  return (
    <ResponsiveContainer width="100%" height={height}>
      <BarChart data={rows} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="date" tickFormatter={shortDate} minTickGap={16} />
        <YAxis allowDecimals={false} label={{ value: 'minutes', angle: -90, position: 'insideLeft' }} />
        <Tooltip formatter={minutes} />
        <Legend />
        {series.map(({ slug, name }) => (
          <Bar key={slug} dataKey={slug} name={name} stackId="minutes" fill={colours[slug]} isAnimationActive={false} />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}
