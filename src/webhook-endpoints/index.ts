import WebhookIcon from '@mui/icons-material/Webhook';
import { WebhookEndpointCreate } from './WebhookEndpointCreate';
import { WebhookEndpointList } from './WebhookEndpointList';
import { WebhookEndpointShow } from './WebhookEndpointShow';

// Admins only (webhooks:manage; App.tsx). Changes happen on the show page (enable, disable,
// delete), so there is no edit view.
export default {
  list: WebhookEndpointList,
  show: WebhookEndpointShow,
  create: WebhookEndpointCreate,
  icon: WebhookIcon,
  options: { label: 'Webhooks' },
  recordRepresentation: 'url',
};
