/** The order form's building blocks: section titles and rows of half-width fields. */
import type { ReactNode } from 'react';
import { Box, Typography } from '@mui/material';

export const SectionTitle = ({ children }: { children: ReactNode }) => (
  <Typography variant="h6" component="h2" sx={{ mt: 2, mb: 1 }}>
    {children}
  </Typography>
);

export const half = { flex: '1 1 240px' } as const;

export const Row = ({ children }: { children: ReactNode }) => (
  <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2, width: '100%' }}>{children}</Box>
);

export const Half = ({ children }: { children: ReactNode }) => <Box sx={half}>{children}</Box>;
