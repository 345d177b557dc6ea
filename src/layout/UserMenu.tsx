import { ListItemIcon, ListItemText, MenuItem } from '@mui/material';
import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import { forwardRef } from 'react';
import { Logout, UserMenu as RaUserMenu, useUserMenu } from 'react-admin';
import { Link } from 'react-router-dom';
import { ACCOUNT_PATH } from '../providers/authProvider';

const AccountItem = forwardRef<HTMLAnchorElement>((props, ref) => {
  const menu = useUserMenu();
  return (
    <MenuItem component={Link} to={ACCOUNT_PATH} ref={ref} {...props} onClick={() => menu?.onClose()}>
      <ListItemIcon>
        <AccountCircleIcon fontSize="small" />
      </ListItemIcon>
      <ListItemText>Your account &amp; two-factor</ListItemText>
    </MenuItem>
  );
});
AccountItem.displayName = 'AccountItem';

/** react-admin's user menu with the member's own account page before "Logout". */
export const UserMenu = () => (
  <RaUserMenu>
    <AccountItem />
    <Logout />
  </RaUserMenu>
);
