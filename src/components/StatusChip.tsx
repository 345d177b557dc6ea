import { Chip, type ChipProps } from '@mui/material';

export interface KnownStatus {
  label: string;
  color: ChipProps['color'];
}

/**
 * A status shown as a chip. Upstream enums are non-exhaustive: a value we have never heard of
 * still shows, as a neutral chip carrying the raw value, instead of breaking the page or hiding.
 */
export const StatusChip = ({ value, known }: { value: string | null | undefined; known: Record<string, KnownStatus> }) => {
  if (value == null || value === '') return <Chip label="Unknown" variant="outlined" />;
  const status = Object.hasOwn(known, value) ? known[value] : undefined;
  if (!status) return <Chip label={value} variant="outlined" title="A status this dashboard does not know yet" />;
  return <Chip label={status.label} color={status.color} />;
};
