/**
 * Who and what the report is about, as read: patient name, date of birth and sex, dates, specimen,
 * ordering provider, the lab with its address and CLIA number. Editable in review; an identity field
 * the reader could not find is tinted as doubtful when the service said the identity is incomplete
 * (the other fields are optional, and their absence holds nothing up).
 */
import { Box, Grid, MenuItem, TextField, Typography } from '@mui/material';
import type { ResultMetadata } from '../types';
import { doubtfulSx } from './cellStyle';

export const METADATA_FIELDS: { key: keyof ResultMetadata; label: string; required?: boolean; identity?: boolean; choices?: string[] }[] = [
  { key: 'patient_first_name', label: 'Patient first name', required: true, identity: true },
  { key: 'patient_last_name', label: 'Patient last name', required: true, identity: true },
  { key: 'dob', label: 'Date of birth', required: true, identity: true },
  { key: 'gender', label: 'Sex', choices: ['female', 'male', 'other'] },
  { key: 'lab_name', label: 'Lab', required: true },
  { key: 'date_collected', label: 'Collected' },
  { key: 'date_received', label: 'Received' },
  { key: 'date_reported', label: 'Reported' },
  { key: 'specimen_number', label: 'Specimen number' },
  { key: 'provider', label: 'Ordering provider' },
  { key: 'lab_address', label: 'Lab address' },
  { key: 'clia_#', label: 'CLIA number' },
];

/**
 * The report details tinted as doubtful: identity fields left empty when the service said the
 * identity is incomplete. One rule for the tint and for the count of doubtful cells above the table.
 */
export const missingDetails = (metadata: ResultMetadata, incomplete: boolean): (keyof ResultMetadata)[] =>
  incomplete ? METADATA_FIELDS.filter((f) => f.identity && !metadata[f.key]).map((f) => f.key) : [];

interface MetadataFieldsProps {
  metadata: ResultMetadata;
  editable: boolean;
  /** The service said some metadata was not found: empty fields are the ones to look at. */
  incomplete: boolean;
  onChange?: (key: keyof ResultMetadata, value: string) => void;
}

export const MetadataFields = ({ metadata, editable, incomplete, onChange }: MetadataFieldsProps) => {
  const missingKeys = missingDetails(metadata, incomplete);
  return (
    <Grid container spacing={1.5} component="section" aria-label="Report details">
      {METADATA_FIELDS.map(({ key, label, required, choices }) => {
        const value = metadata[key] ?? '';
        const missing = missingKeys.includes(key);
        return (
          <Grid key={key} size={{ xs: 12, sm: 6, lg: 3 }}>
            {editable ? (
              <TextField
                label={label}
                value={value}
                onChange={(e) => onChange?.(key, e.target.value)}
                size="small"
                fullWidth
                select={!!choices}
                color={missing ? 'warning' : undefined}
                helperText={missing ? 'Not found on the report' : required ? undefined : 'Optional'}
                sx={missing ? { '& .MuiInputBase-root': doubtfulSx(true), '& .MuiFormHelperText-root': { color: 'warning.dark' } } : undefined}
              >
                {choices && [
                  <MenuItem key="" value="">
                    Not printed
                  </MenuItem>,
                  ...choices.map((c) => (
                    <MenuItem key={c} value={c}>
                      {c}
                    </MenuItem>
                  )),
                ]}
              </TextField>
            ) : (
              <Box sx={missing ? { ...doubtfulSx(true), p: 0.5 } : undefined}>
                <Typography variant="caption" color="text.secondary" component="div">
                  {label}
                </Typography>
                <Typography variant="body2">{value || '—'}</Typography>
              </Box>
            )}
          </Grid>
        );
      })}
    </Grid>
  );
};
