import { Box, Typography } from '@mui/material';
import PeopleOutlineIcon from '@mui/icons-material/PeopleOutline';

/** Shown instead of an empty table when the team has no users at all (not when a search finds none). */
export const UsersEmpty = () => (
  <Box sx={{ textAlign: 'center', mt: 8, mx: 'auto', maxWidth: 520, color: 'text.secondary' }}>
    <PeopleOutlineIcon sx={{ fontSize: 64 }} aria-hidden />
    <Typography variant="h5" component="h2" gutterBottom color="text.primary">
      No users yet
    </Typography>
    <Typography>
      Users are created through the service API, with <code>POST /v2/user</code> and your team&apos;s API key.
      They show up here as soon as they exist.
    </Typography>
  </Box>
);
