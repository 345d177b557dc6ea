/**
 * A multi-line text input with a live "n / max" character counter, and a max-length check that
 * refuses the form (not the keystroke) past the limit, so pasting too much shows what to cut.
 */
import { Box, Typography } from '@mui/material';
import { TextInput, type TextInputProps, type Validator } from 'react-admin';
// react-admin's own forms are react-hook-form; watching a value is done with its hook (as react-admin documents).
import { useWatch } from 'react-hook-form';

/** Characters as the service counts them (JavaScript string length, like its zod `max`). */
export const charCount = (value: unknown) => (typeof value === 'string' ? value.length : 0);

export const CountedTextInput = ({
  max,
  source,
  validate,
  helperText,
  ...rest
}: Omit<TextInputProps, 'validate'> & { max: number; validate?: Validator | Validator[] }) => {
  // Watch the value without owning the field: TextInput below is the real input.
  const value: unknown = useWatch({ name: source });
  const count = charCount(value);
  const over = count > max;
  const tooLong: Validator = (v: unknown) =>
    charCount(v) > max ? `At most ${max} characters: remove ${charCount(v) - max}` : undefined;
  const validators = [tooLong, ...(validate ? [validate].flat() : [])];
  return (
    <Box sx={{ width: '100%' }}>
      <TextInput source={source} multiline minRows={3} fullWidth validate={validators} helperText={helperText} {...rest} />
      <Typography
        variant="caption"
        component="div"
        aria-live="polite"
        data-testid={`${source}-counter`}
        color={over ? 'error' : 'text.secondary'}
        sx={{ textAlign: 'right', mt: -1.5, mb: 1 }}
      >
        {`${count} / ${max}`}
      </Typography>
    </Box>
  );
};
