import { Typography } from '@mui/material';
import { AppBar as RaAppBar, TitlePortal } from 'react-admin';

/** react-admin's app bar with the product name before the page title. */
export const AppBar = () => (
  <RaAppBar>
    <Typography variant="h6" component="span" sx={{ mr: 2, fontWeight: 600 }}>
      Labdesk
    </Typography>
    <TitlePortal />
  </RaAppBar>
);
