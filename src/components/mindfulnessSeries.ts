/**
 * Turns the BFF's daily totals into what a stacked bar chart wants. Kept apart from the chart so
 * the page can compute its summary without loading recharts.
 */
import type { MindfulnessMinutes } from '../providers/types';

export interface ProviderSeries {
  slug: string;
  name: string;
}

/** `providers` in the BFF's order, plus any slug that only shows up inside `by_provider`. */
export function providerSeries(data: MindfulnessMinutes): ProviderSeries[] {
  const series = new Map<string, string>();
  for (const provider of data.providers) series.set(provider.slug, provider.name || provider.slug);
  for (const day of data.days) {
    for (const slug of Object.keys(day.by_provider)) if (!series.has(slug)) series.set(slug, slug);
  }
  return [...series].map(([slug, name]) => ({ slug, name }));
}

export type ChartRow = { date: string } & Record<string, number | string>;

/** One row per day, one numeric key per provider slug (0 where the provider had nothing). */
export function chartRows(data: MindfulnessMinutes, series: ProviderSeries[]): ChartRow[] {
  return data.days.map((day) => {
    const row: ChartRow = { date: day.date };
    for (const { slug } of series) row[slug] = day.by_provider[slug] ?? 0;
    return row;
  });
}

export function totalMinutes(data: MindfulnessMinutes): number {
  return data.days.reduce((sum, day) => sum + day.total, 0);
}

export function isEmpty(data: MindfulnessMinutes): boolean {
  return data.sessions === 0 && totalMinutes(data) === 0;
}
