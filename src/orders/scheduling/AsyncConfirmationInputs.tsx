/**
 * "Confirm asynchronously": instead of holding the page until the provider answers (up to ~30 s,
 * and nothing is booked if it does not), the booking waits a short window, then stays pending
 * while the provider confirms in the background, until a timeout after which it is cancelled.
 */
import { Box, Checkbox, FormControlLabel, Typography } from '@mui/material';
import { maxValue, minValue, NumberInput, required, useInput } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { formatDuration } from '../../components/ElapsedProgress';
import { ASYNC_MINUTES, SYNC_SECONDS } from './bookingBody';

const CheckboxInput = ({ source, label }: { source: string; label: string }) => {
  const { field } = useInput({ source, defaultValue: false });
  return (
    <FormControlLabel
      control={<Checkbox checked={Boolean(field.value)} onChange={(e) => field.onChange(e.target.checked)} onBlur={field.onBlur} name={field.name} />}
      label={label}
    />
  );
};

const syncValidate = [required(), minValue(SYNC_SECONDS.min), maxValue(SYNC_SECONDS.max)];
const asyncValidate = [required(), minValue(ASYNC_MINUTES.min), maxValue(ASYNC_MINUTES.max)];

export const AsyncConfirmationInputs = () => {
  const isAsync = Boolean(useWatch({ name: 'async_confirmation' }));
  const minutes: unknown = useWatch({ name: 'async_minutes' });
  return (
    <Box>
      <CheckboxInput source="async_confirmation" label="Confirm asynchronously" />
      {isAsync ? (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2 }}>
          <NumberInput
            source="sync_seconds"
            label="Wait for a quick answer (seconds)"
            min={SYNC_SECONDS.min}
            max={SYNC_SECONDS.max}
            step={0.5}
            validate={syncValidate}
            helperText={`${SYNC_SECONDS.min}–${SYNC_SECONDS.max} s, default ${SYNC_SECONDS.default} s; then the booking shows as pending`}
            sx={{ flex: '1 1 240px' }}
          />
          <NumberInput
            source="async_minutes"
            label="Cancel if not confirmed within (minutes)"
            min={ASYNC_MINUTES.min}
            max={ASYNC_MINUTES.max}
            step={1}
            validate={asyncValidate}
            helperText={`${ASYNC_MINUTES.min}–${ASYNC_MINUTES.max} min (48 h), default ${ASYNC_MINUTES.default} min${
              typeof minutes === 'number' && minutes >= 60 ? `; now ${formatDuration(minutes * 60_000)}` : ''
            }`}
            sx={{ flex: '1 1 240px' }}
          />
        </Box>
      ) : (
        <Typography variant="caption" color="text.secondary" component="div" sx={{ mb: 1 }}>
          Without it, booking waits for the provider to confirm (up to about 30 seconds); if it does not, nothing is booked.
        </Typography>
      )}
    </Box>
  );
};
