/**
 * The report file as a form input: a "Choose a file" button (and a drop zone) over a native file
 * input, showing the chosen name and size. The value is the File itself. The checks run as soon as
 * a file is chosen, so "too large" shows before anyone presses Upload.
 */
import { useId, useRef, useState, type DragEvent } from 'react';
import { Box, Button, FormHelperText, Typography } from '@mui/material';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import { useInput, ValidationError } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import { ACCEPT_ATTRIBUTE, fileProblem, formatBytes } from './fileChecks';

export const ReportFileInput = ({ source, label, disabled }: { source: string; label: string; disabled?: boolean }) => {
  const { field, fieldState } = useInput({ source, validate: (value: unknown) => fileProblem(value), defaultValue: null });
  const { trigger } = useFormContext();
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const id = useId();
  const file = field.value instanceof File ? field.value : null;
  const error = fieldState.error?.message;

  const choose = (chosen: File | undefined) => {
    if (!chosen) return;
    field.onChange(chosen);
    void trigger(source);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (!disabled) choose(event.dataTransfer.files[0]);
  };

  return (
    <Box sx={{ mb: 2, width: '100%' }}>
      <Typography variant="body2" component="label" htmlFor={id} sx={{ display: 'block', mb: 1 }}>
        {label}
      </Typography>
      <Box
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        sx={{
          border: '1px dashed',
          borderColor: error ? 'error.main' : dragging ? 'primary.main' : 'divider',
          borderRadius: 1,
          p: 2,
          display: 'flex',
          alignItems: 'center',
          gap: 2,
          flexWrap: 'wrap',
          bgcolor: dragging ? 'action.hover' : undefined,
        }}
      >
        <input
          ref={inputRef}
          id={id}
          type="file"
          accept={ACCEPT_ATTRIBUTE}
          aria-label={label}
          aria-invalid={Boolean(error)}
          aria-describedby={`${id}-help`}
          disabled={disabled}
          onChange={(e) => {
            choose(e.target.files?.[0]);
            // Choosing the same file again (after fixing it on disk) must fire a change again.
            e.target.value = '';
          }}
          onBlur={field.onBlur}
          style={{ position: 'absolute', width: 1, height: 1, opacity: 0, overflow: 'hidden' }}
        />
        <Button variant="outlined" startIcon={<AttachFileIcon />} onClick={() => inputRef.current?.click()} disabled={disabled}>
          {file ? 'Choose another file' : 'Choose a file'}
        </Button>
        <Typography variant="body2" color={file ? 'text.primary' : 'text.secondary'} data-testid="chosen-file">
          {file ? `${file.name} (${formatBytes(file.size)})` : 'or drop it here'}
        </Typography>
      </Box>
      <FormHelperText id={`${id}-help`} error={Boolean(error)} role={error ? 'alert' : undefined}>
        {error ? <ValidationError error={error} /> : 'A PDF, JPEG or PNG of the report, at most 10 MB.'}
      </FormHelperText>
    </Box>
  );
};
