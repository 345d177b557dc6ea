import { Box, Typography } from '@mui/material';
import PeopleOutlineIcon from '@mui/icons-material/PeopleOutline';
import { CreateButton, useResourceDefinition } from 'react-admin';

/** Shown instead of an empty table when the team has no users at all (not when a search finds none). */
export const UsersEmpty = () => {
  const { hasCreate } = useResourceDefinition();
  return (
    <Box sx={{ textAlign: 'center', mt: 8, mx: 'auto', maxWidth: 520, color: 'text.secondary' }}>
      <PeopleOutlineIcon sx={{ fontSize: 64 }} aria-hidden />
      <Typography variant="h5" component="h2" gutterBottom color="text.primary">
        No users yet
      </Typography>
      <Typography>
        {hasCreate ? 'Add the first patient here, ' : 'A care coordinator can add patients here, '}
        or create them through the service API with <code>POST /v2/user</code> and your team&apos;s API key. They show up here as soon as they
        exist.
      </Typography>
      {hasCreate && <CreateButton variant="contained" label="New patient" sx={{ mt: 2 }} />}
    </Box>
  );
};
