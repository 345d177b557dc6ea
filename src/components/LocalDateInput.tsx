/**
 * A date filter in the viewer's own days: the user picks a calendar date, the filter holds the
 * instant where that day starts (or ends) in the viewer's time zone, as ISO-8601 with `Z`.
 * So "created from 1 May to 3 May" means the viewer's 1 May 00:00 to 3 May 23:59:59.999.
 */
import { TextField } from '@mui/material';
import { useInput, type InputProps } from 'react-admin';

const pad = (n: number) => String(n).padStart(2, '0');

/** YYYY-MM-DD (the viewer's calendar) → the instant the day starts or ends, in UTC ISO. */
export function localDayBound(date: string, edge: 'start' | 'end'): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return null;
  const d =
    edge === 'start'
      ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 0, 0, 0, 0)
      : new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 23, 59, 59, 999);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** An instant → the viewer's calendar date YYYY-MM-DD ('' when unreadable). */
export function localDateOf(iso: unknown): string {
  if (typeof iso !== 'string' || iso === '') return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

export const LocalDateInput = ({ edge, label, ...props }: InputProps & { edge: 'start' | 'end'; label: string }) => {
  const { field, id } = useInput({
    ...props,
    format: localDateOf,
    parse: (value: string) => (value ? localDayBound(value, edge) : null),
  });
  return (
    <TextField
      id={id}
      type="date"
      label={label}
      size="small"
      variant="filled"
      value={field.value ?? ''}
      onChange={(e) => field.onChange(e.target.value)}
      onBlur={field.onBlur}
      name={field.name}
      inputRef={field.ref}
      slotProps={{ inputLabel: { shrink: true } }}
      sx={{ minWidth: 170 }}
    />
  );
};
