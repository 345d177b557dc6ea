import type { ReactNode } from 'react';
import { Button, CircularProgress, type ButtonProps } from '@mui/material';
import { useFormState } from 'react-hook-form';

/**
 * A form's submit button that is held while the submission is in flight (react-admin forms are
 * react-hook-form forms: `isSubmitting` lasts until onSubmit's promise settles), so the same
 * booking or cancellation is never sent twice.
 */
export const SubmitButton = ({ label, icon, disabled = false, color }: { label: string; icon?: ReactNode; disabled?: boolean; color?: ButtonProps['color'] }) => {
  const { isSubmitting } = useFormState();
  return (
    <Button
      type="submit"
      variant="contained"
      color={color}
      disabled={disabled || isSubmitting}
      startIcon={isSubmitting ? <CircularProgress size={18} color="inherit" /> : icon}
    >
      {label}
    </Button>
  );
};
