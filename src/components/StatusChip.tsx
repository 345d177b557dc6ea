import { Chip, type ChipProps } from '@mui/material';

export interface KnownStatus {
  label: string;
  color: ChipProps['color'];
  /** Longer explanation, shown as the chip's tooltip. */
  description?: string;
}

/**
 * A status shown as a chip. Upstream enums are non-exhaustive: a value we have never heard of
 * still shows, as a neutral chip carrying the raw value, instead of breaking the page or hiding.
 */
export const StatusChip = ({
  value,
  known,
  size,
}: {
  value: string | null | undefined;
  known: Record<string, KnownStatus>;
  size?: ChipProps['size'];
}) => {
  if (value == null || value === '') return <Chip label="Unknown" variant="outlined" size={size} />;
  const status = Object.hasOwn(known, value) ? known[value] : undefined;
  if (!status) return <Chip label={value} variant="outlined" size={size} title="A status this dashboard does not know yet" />;
  return <Chip label={status.label} color={status.color} size={size} title={status.description} />;
};
