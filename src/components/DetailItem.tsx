/**
 * A label over a value, as react-admin's SimpleShowLayout lays them out, for the detail cards that
 * read values from free-form objects (orders, their appointments and clinical details).
 */
import type { ReactNode } from 'react';
import { Box, Grid, Typography } from '@mui/material';

/** Secondary text for a value that is absent ("Not given", "None recorded"). */
export const Muted = ({ children }: { children: ReactNode }) => (
  <Typography variant="body2" color="text.secondary" component="span">
    {children}
  </Typography>
);

/** Half the card's width, or all of it when `wide`; `whenEmpty` stands in for an empty or missing value. */
export const DetailItem = ({ label, children, wide, whenEmpty }: { label: string; children: ReactNode; wide?: boolean; whenEmpty?: string }) => (
  <Grid size={{ xs: 12, sm: wide ? 12 : 6 }}>
    <Typography variant="caption" color="text.secondary" component="div">
      {label}
    </Typography>
    <Box sx={{ typography: 'body2' }}>{whenEmpty !== undefined && (children === '' || children == null) ? <Muted>{whenEmpty}</Muted> : children}</Box>
  </Grid>
);
