/**
 * Event types as chips: pick known ones, or type any other name (new types flow without a
 * dashboard release) or a family like `labtest.order.*`, then Enter. Empty means every type.
 */
import { Autocomplete, Chip, TextField } from '@mui/material';
import { useInput, ValidationError } from 'react-admin';
import { EVENT_TYPE_PATTERN, EVENT_TYPES_MAX, KNOWN_EVENT_TYPES } from './types';

export function eventTypesProblem(value: unknown): string | undefined {
  if (value == null) return undefined;
  if (!Array.isArray(value)) return 'Choose event types';
  if (value.length > EVENT_TYPES_MAX) return `At most ${EVENT_TYPES_MAX} event types`;
  const bad = value.find((t) => typeof t !== 'string' || !EVENT_TYPE_PATTERN.test(t));
  if (bad !== undefined) return `"${String(bad)}" is not an event type: use lower-case names like labtest.order.created, a family like labtest.order.*, or *`;
  return undefined;
}

export const EventTypesInput = ({ source, label }: { source: string; label: string }) => {
  const { field, fieldState } = useInput({ source, validate: eventTypesProblem, defaultValue: [] });
  const value: string[] = Array.isArray(field.value) ? (field.value as string[]) : [];
  const error = fieldState.error?.message;
  return (
    <Autocomplete<string, true, false, true>
      multiple
      freeSolo
      autoSelect
      options={[...KNOWN_EVENT_TYPES]}
      value={value}
      onChange={(_e, next) => field.onChange(next.map((t) => t.trim()).filter(Boolean))}
      onBlur={field.onBlur}
      renderValue={(chosen, getItemProps) =>
        chosen.map((option, index) => {
          const { key, ...itemProps } = getItemProps({ index });
          return <Chip key={key} label={option} size="small" sx={{ fontFamily: 'monospace' }} {...itemProps} />;
        })
      }
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          error={Boolean(error)}
          helperText={error ? <ValidationError error={error} /> : 'Leave empty for every event type. Type a name or a family (labtest.order.*) and press Enter to add it.'}
          sx={{ mb: 2 }}
        />
      )}
      fullWidth
    />
  );
};
