import { Button, ButtonGroup, Stack, TextField } from '@mui/material';
import type { DateRange } from '../providers/types';
import { RANGE_PRESETS, rangeProblem } from './dateRange';

interface DateRangePickerProps {
  value: DateRange;
  onChange(range: DateRange): void;
  /** The day presets end on: "today" where the dates are counted (the patient's zone). */
  today: string;
}

/**
 * Two native date inputs plus presets. Native inputs keep the bundle small and give every
 * browser's own accessible date picker; the problem with the range shows under the start date.
 */
export const DateRangePicker = ({ value, onChange, today }: DateRangePickerProps) => {
  const problem = rangeProblem(value);
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
      <TextField
        label="From"
        type="date"
        size="small"
        variant="outlined"
        margin="none"
        fullWidth={false}
        value={value.start_date}
        onChange={(e) => onChange({ ...value, start_date: e.target.value })}
        error={problem !== null}
        helperText={problem ?? ' '}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: today } }}
      />
      <TextField
        label="To"
        type="date"
        size="small"
        variant="outlined"
        margin="none"
        fullWidth={false}
        value={value.end_date}
        onChange={(e) => onChange({ ...value, end_date: e.target.value })}
        error={problem !== null}
        helperText=" "
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <ButtonGroup size="small" aria-label="Date range presets" sx={{ mt: { sm: 0.5 } }}>
        {RANGE_PRESETS.map((preset) => {
          const range = preset.range(today);
          const active = range.start_date === value.start_date && range.end_date === value.end_date;
          return (
            <Button
              key={preset.label}
              variant={active ? 'contained' : 'outlined'}
              aria-pressed={active}
              onClick={() => onChange(range)}
            >
              {preset.label}
            </Button>
          );
        })}
      </ButtonGroup>
    </Stack>
  );
};
