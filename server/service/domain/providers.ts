import { sql } from 'drizzle-orm';
import type { Database } from '../../store/db';
import { providers, type ServiceSchema } from '../db/schema';

/** Wearable and app providers the service knows. Logos are served by the service itself (no outside hosts). */
export const PROVIDER_CATALOGUE: ReadonlyArray<{ slug: string; name: string }> = [
  { slug: 'oura', name: 'Oura' },
  { slug: 'fitbit', name: 'Fitbit' },
  { slug: 'garmin', name: 'Garmin' },
  { slug: 'whoop', name: 'WHOOP' },
  { slug: 'apple_health_kit', name: 'Apple HealthKit' },
  { slug: 'health_connect', name: 'Health Connect' },
  { slug: 'withings', name: 'Withings' },
  { slug: 'polar', name: 'Polar' },
  { slug: 'ultrahuman', name: 'Ultrahuman' },
  { slug: 'manual', name: 'Manual entry' },
];

export const logoPath = (slug: string) => `/v2/providers/${encodeURIComponent(slug)}/logo.svg`;

/** Keeps the providers table in step with the catalogue (new providers appear on the next start). */
export async function syncProviderCatalogue(db: Database<ServiceSchema>) {
  await db
    .insert(providers)
    .values(PROVIDER_CATALOGUE.map((p) => ({ ...p, logo: logoPath(p.slug) })))
    .onConflictDoUpdate({ target: providers.slug, set: { name: sql`excluded.name`, logo: sql`excluded.logo` } });
}

/** A small initials badge, so every provider has a logo URL that never points off the machine. */
export function providerLogoSvg(slug: string): string | null {
  const p = PROVIDER_CATALOGUE.find((x) => x.slug === slug);
  if (!p) return null;
  const initials = p.name
    .split(/\s+/)
    .map((w) => w[0])
    .join('')
    .slice(0, 2)
    .toUpperCase();
  let hue = 0;
  for (const c of slug) hue = (hue * 31 + c.charCodeAt(0)) % 360;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="hsl(${hue},55%,45%)"/><text x="32" y="40" font-family="sans-serif" font-size="24" font-weight="700" text-anchor="middle" fill="#fff">${initials}</text></svg>`;
}
