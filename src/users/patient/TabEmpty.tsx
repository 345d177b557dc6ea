import type { ReactNode } from 'react';
import { Box, Typography } from '@mui/material';

/** A tab with nothing in it yet: what is missing, and (when the role may) the button that adds it. */
export const TabEmpty = ({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) => (
  <Box sx={{ textAlign: 'center', py: 4, mx: 'auto', maxWidth: 520, color: 'text.secondary' }}>
    <Typography variant="h6" component="p" color="text.primary" gutterBottom>
      {title}
    </Typography>
    <Typography gutterBottom>{children}</Typography>
    {action && <Box sx={{ mt: 2 }}>{action}</Box>}
  </Box>
);
