import { Box, Typography } from '@mui/material';
import EventIcon from '@mui/icons-material/Event';
import ScienceIcon from '@mui/icons-material/Science';
import { Button, Link, useCreatePath } from 'react-admin';

/** Shown when the team has no appointment at all (not when filters match none): says where draws are booked. */
export const AppointmentsEmpty = () => {
  const createPath = useCreatePath();
  const search = `?filter=${encodeURIComponent(JSON.stringify({ collection_method: ['at_home_phlebotomy'] }))}`;
  return (
    <Box sx={{ textAlign: 'center', mt: 8, mx: 'auto', maxWidth: 520, color: 'text.secondary' }}>
      <EventIcon sx={{ fontSize: 64 }} aria-hidden />
      <Typography variant="h5" component="h2" gutterBottom color="text.primary">
        No appointments yet
      </Typography>
      <Typography gutterBottom>
        Book a draw from an at-home order&apos;s page: open an order collected by at-home phlebotomy and pick a time for the patient.
      </Typography>
      <Button
        component={Link}
        to={{ pathname: createPath({ resource: 'orders', type: 'list' }), search }}
        label="At-home orders"
        variant="outlined"
        sx={{ mt: 2 }}
      >
        <ScienceIcon />
      </Button>
    </Box>
  );
};
