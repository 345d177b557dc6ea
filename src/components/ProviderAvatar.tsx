import { Avatar } from '@mui/material';

/**
 * A provider's initials in a coloured circle. Provider logos are URLs on outside hosts, and the
 * dashboard loads nothing from outside hosts, so we never render them.
 */
export function initialsOf(name: string): string {
  const words = name.trim().split(/[\s_-]+/).filter(Boolean);
  const letters = words.length > 1 ? `${words[0]?.[0] ?? ''}${words[1]?.[0] ?? ''}` : name.trim().slice(0, 2);
  return letters.toUpperCase() || '?';
}

// A stable colour per provider so the same provider looks the same on every page. The service's
// known providers each have their own; others hash onto the palette.
const COLOURS = ['#1d5c8c', '#2a7a68', '#8a4f9e', '#b3591c', '#49617a', '#7a6a1d', '#a23b5a', '#3d7a2a', '#c0392b', '#0e7c9a'];
const KNOWN: Record<string, string> = {
  apple_health_kit: '#1d5c8c',
  oura: '#7a6a1d',
  garmin: '#0e7c9a',
  fitbit: '#49617a',
  whoop: '#c0392b',
  health_connect: '#3d7a2a',
  withings: '#8a4f9e',
  polar: '#b3591c',
  ultrahuman: '#2a7a68',
  manual: '#a23b5a',
};

export function colourFor(key: string): string {
  const known = KNOWN[key];
  if (known) return known;
  let hash = 0;
  for (const char of key) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return COLOURS[hash % COLOURS.length] ?? '#49617a';
}

/** Colours for series drawn together: each provider's own, unless another series already has it. */
export function distinctColours(keys: readonly string[]): Record<string, string> {
  const used = new Set<string>();
  const out: Record<string, string> = {};
  for (const key of keys) {
    let colour = colourFor(key);
    if (used.has(colour)) colour = COLOURS.find((c) => !used.has(c)) ?? colour;
    used.add(colour);
    out[key] = colour;
  }
  return out;
}

export const ProviderAvatar = ({ name, slug, size = 24 }: { name: string; slug: string; size?: number }) => (
  <Avatar
    aria-hidden
    sx={{ width: size, height: size, fontSize: size * 0.42, bgcolor: colourFor(slug || name), color: '#fff' }}
  >
    {initialsOf(name || slug)}
  </Avatar>
);
