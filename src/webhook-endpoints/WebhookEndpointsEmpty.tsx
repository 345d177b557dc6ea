import { Box, Typography } from '@mui/material';
import WebhookIcon from '@mui/icons-material/Webhook';
import { CreateButton } from 'react-admin';
import { TeamWebhookSettings } from './TeamWebhookSettings';

/** No endpoint yet: what webhooks are for, and where to add one. */
export const WebhookEndpointsEmpty = () => (
  <Box sx={{ mt: 2 }}>
  <TeamWebhookSettings />
  <Box sx={{ textAlign: 'center', mt: 6, mx: 'auto', maxWidth: 520, color: 'text.secondary' }}>
    <WebhookIcon sx={{ fontSize: 64 }} aria-hidden />
    <Typography variant="h5" component="h2" gutterBottom color="text.primary">
      No webhook endpoints yet
    </Typography>
    <Typography gutterBottom>
      Add the URL of a server of yours to be told, with signed requests, when orders, appointments or parsed lab reports change.
    </Typography>
    <CreateButton label="Add an endpoint" variant="contained" sx={{ mt: 2 }} />
  </Box>
  </Box>
);
