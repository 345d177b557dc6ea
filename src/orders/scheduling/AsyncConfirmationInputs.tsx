/**
 * How the booking is confirmed, in a coordinator's words: confirm now (the page waits for the
 * provider's answer, and nothing is booked if it does not come), or let the provider confirm later
 * (the booking holds the time while the provider confirms in the background, and is cancelled if
 * it has not by the deadline). The short wait before "later" becomes pending is the service's
 * default: a coordinator has no reason to tune it, so it is not asked.
 */
import { Box, FormControl, FormControlLabel, FormLabel, Radio, RadioGroup, Typography } from '@mui/material';
import { maxValue, minValue, NumberInput, required, useInput } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { formatDuration } from '../../components/ElapsedProgress';
import { ASYNC_MINUTES } from './bookingBody';

const NOW = 'now';
const LATER = 'later';

/** The form keeps `async_confirmation` a boolean (what the body needs); the choice reads as two sentences. */
const ConfirmationChoice = () => {
  const { field } = useInput({ source: 'async_confirmation', defaultValue: false });
  return (
    <FormControl component="fieldset" sx={{ mb: 1 }}>
      <FormLabel component="legend">Confirmation</FormLabel>
      <RadioGroup
        row
        name={field.name}
        value={field.value ? LATER : NOW}
        onChange={(e) => field.onChange(e.target.value === LATER)}
        onBlur={field.onBlur}
      >
        <FormControlLabel value={NOW} control={<Radio />} label="Confirm now" />
        <FormControlLabel value={LATER} control={<Radio />} label="Let the provider confirm later" />
      </RadioGroup>
    </FormControl>
  );
};

const asyncValidate = [required(), minValue(ASYNC_MINUTES.min), maxValue(ASYNC_MINUTES.max)];

export const AsyncConfirmationInputs = () => {
  const later = Boolean(useWatch({ name: 'async_confirmation' }));
  const minutes: unknown = useWatch({ name: 'async_minutes' });
  return (
    <Box>
      <ConfirmationChoice />
      {later ? (
        <Box>
          <Typography variant="caption" color="text.secondary" component="div" sx={{ mb: 1 }}>
            The time is held while the provider confirms; this page shows when they do. If they have not confirmed in time, the booking is cancelled.
          </Typography>
          <NumberInput
            source="async_minutes"
            label="Cancel if not confirmed within (minutes)"
            min={ASYNC_MINUTES.min}
            max={ASYNC_MINUTES.max}
            step={1}
            validate={asyncValidate}
            helperText={`Up to ${formatDuration(ASYNC_MINUTES.max * 60_000)}; default ${ASYNC_MINUTES.default} min${
              typeof minutes === 'number' && minutes >= 60 ? `; now ${formatDuration(minutes * 60_000)}` : ''
            }`}
            sx={{ maxWidth: 360 }}
          />
        </Box>
      ) : (
        <Typography variant="caption" color="text.secondary" component="div" sx={{ mb: 1 }}>
          The page waits for the provider to confirm the time. If they cannot confirm it now, nothing is booked: try again, or let the provider confirm later.
        </Typography>
      )}
    </Box>
  );
};
