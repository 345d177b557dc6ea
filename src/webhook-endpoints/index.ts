import WebhookIcon from '@mui/icons-material/Webhook';
import { lazyView } from '../components/lazyView';

// Each view is downloaded the first time it is opened (components/lazyView.ts).
const WebhookEndpointCreate = lazyView(() => import('./WebhookEndpointCreate'), 'WebhookEndpointCreate');
const WebhookEndpointList = lazyView(() => import('./WebhookEndpointList'), 'WebhookEndpointList');
const WebhookEndpointShow = lazyView(() => import('./WebhookEndpointShow'), 'WebhookEndpointShow');

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
