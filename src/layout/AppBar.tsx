import { Typography } from '@mui/material';
import { AppBar as RaAppBar, TitlePortal } from 'react-admin';
import { UserMenu } from './UserMenu';

/** react-admin's app bar with the product name before the page title. */
export const AppBar = () => (
  <RaAppBar userMenu={<UserMenu />}>
    <Typography variant="h6" component="span" sx={{ mr: 2, fontWeight: 600 }}>
      Labdesk
    </Typography>
    <TitlePortal />
  </RaAppBar>
);
