/** A plain checkbox bound to a form field (react-admin's BooleanInput is a switch, which reads as "on/off", not "ask for"). */
import { Checkbox, FormControlLabel, FormHelperText } from '@mui/material';
import { useInput, ValidationError } from 'react-admin';

export const CheckboxInput = ({ source, label, helperText, disabled }: { source: string; label: string; helperText?: string; disabled?: boolean }) => {
  const { field, fieldState } = useInput({ source, defaultValue: false });
  const error = fieldState.error?.message;
  return (
    <>
      <FormControlLabel
        control={<Checkbox checked={field.value === true} onChange={(e) => field.onChange(e.target.checked)} onBlur={field.onBlur} disabled={disabled} />}
        label={label}
      />
      <FormHelperText error={Boolean(error)} sx={{ mt: -0.5, mb: 2 }}>
        {error ? <ValidationError error={error} /> : helperText}
      </FormHelperText>
    </>
  );
};
