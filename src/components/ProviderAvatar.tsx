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

// A stable colour per provider so the same provider looks the same on every page.
const COLOURS = ['#1d5c8c', '#2a7a68', '#8a4f9e', '#b3591c', '#49617a', '#7a6a1d', '#a23b5a', '#3d7a2a'];
export function colourFor(key: string): string {
  let hash = 0;
  for (const char of key) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return COLOURS[hash % COLOURS.length] ?? '#49617a';
}

export const ProviderAvatar = ({ name, slug, size = 24 }: { name: string; slug: string; size?: number }) => (
  <Avatar
    aria-hidden
    sx={{ width: size, height: size, fontSize: size * 0.42, bgcolor: colourFor(slug || name), color: '#fff' }}
  >
    {initialsOf(name || slug)}
  </Avatar>
);
